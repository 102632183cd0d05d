// SceneIO — STLReader: binary and ASCII STL (ASCII detected by content, not by "solid" alone).
import RenderCore

/// Reads STL into an unindexed-by-position mesh: three vertices per facet, each carrying the
/// facet normal (computed from the winding when the file's normal is zero).
enum STLReader {
    /// True when the bytes are a binary STL: 84 + 50·n bytes exactly.
    static func isBinary(_ v: ByteView) -> Bool {
        guard v.count >= 84 else { return false }
        let n = Int(v.u32(80))
        return 84 + 50 * n == v.count
    }

    static func read(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        if isBinary(view) { return try readBinary(view, progress: progress) }
        var sc = TextScanner(view)
        if let t = sc.token(), sc.equals(t, "solid") { return try readASCII(view, progress: progress) }
        if view.count >= 84 {
            throw SceneIOError.badBytes(file: view.file, offset: 80, expected: "a binary STL of 84 + 50 × \(view.u32(80)) bytes", found: "\(view.count) bytes")
        }
        throw SceneIOError.truncated(file: view.file, offset: view.count, expected: "an 84-byte binary STL header or ASCII \"solid\"")
    }

    static func finish(_ pos: [Vec3], _ nrm: [Vec3], _ tris: Int, variant: String) -> ReadResult {
        let idx = (0..<UInt32(pos.count)).map { $0 }
        let mesh = TriangleMesh(positions: pos, indices: idx, normals: nrm)
        return ReadResult(scene: .mesh(mesh), format: .stl, variant: variant, version: "",
                          elements: [SceneInfo.Element(name: "facet", count: tris, properties: ["normal", "vertex ×3"])])
    }

    static func append(_ pos: inout [Vec3], _ nrm: inout [Vec3], _ n: Vec3, _ a: Vec3, _ b: Vec3, _ c: Vec3) {
        var fn = n
        if !(fn.x.isFinite && fn.y.isFinite && fn.z.isFinite) || fn == .zero { fn = (b - a).cross(c - a).normalized }
        if !(fn.x.isFinite && fn.y.isFinite && fn.z.isFinite) { fn = Vec3(0, 0, 1) }
        pos += [a, b, c]; nrm += [fn, fn, fn]
    }

    static func readBinary(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let n = Int(view.u32(80))
        var pos: [Vec3] = [], nrm: [Vec3] = []
        pos.reserveCapacity(n * 3); nrm.reserveCapacity(n * 3)
        for i in 0..<n {
            let o = 84 + i * 50
            func v(_ k: Int) -> Vec3 { Vec3(view.f32(o + k), view.f32(o + k + 4), view.f32(o + k + 8)) }
            let a = v(12), b = v(24), c = v(36)
            for p in [a, b, c] where !(p.x.isFinite && p.y.isFinite && p.z.isFinite) {
                throw SceneIOError.badBytes(file: view.file, offset: o + 12, expected: "finite vertex coordinates", found: "\(p)")
            }
            append(&pos, &nrm, v(0), a, b, c)
            if i & 0xFFFF == 0xFFFF { progress?(o, view.count) }
        }
        progress?(view.count, view.count)
        return finish(pos, nrm, n, variant: "binary")
    }

    static func readASCII(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = view.file
        var sc = TextScanner(view)
        _ = sc.token()                                   // "solid"
        _ = sc.restOfLine()                              // the solid's name
        var pos: [Vec3] = [], nrm: [Vec3] = []
        var tris = 0
        func expect(_ word: StaticString) throws {
            guard let t = sc.token() else { throw SceneIOError.badLine(file: file, line: sc.line, expected: "\(word)", found: "end of file") }
            guard sc.equals(t, word) else { throw SceneIOError.badLine(file: file, line: sc.line, expected: "\(word)", found: sc.string(t)) }
        }
        func vec(_ what: String) throws -> Vec3 {
            let v = Vec3(Float(try sc.number(what + " x")), Float(try sc.number(what + " y")), Float(try sc.number(what + " z")))
            return v
        }
        while true {
            guard let t = sc.token() else { break }          // tolerate a missing endsolid
            if sc.equals(t, "endsolid") { break }
            guard sc.equals(t, "facet") else { throw SceneIOError.badLine(file: file, line: sc.line, expected: "facet or endsolid", found: sc.string(t)) }
            try expect("normal")
            let n = try vec("normal")
            try expect("outer"); try expect("loop")
            var vs: [Vec3] = []
            while true {
                guard let w = sc.token() else { throw SceneIOError.badLine(file: file, line: sc.line, expected: "vertex or endloop", found: "end of file") }
                if sc.equals(w, "endloop") { break }
                guard sc.equals(w, "vertex") else { throw SceneIOError.badLine(file: file, line: sc.line, expected: "vertex or endloop", found: sc.string(w)) }
                let p = try vec("vertex")
                guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                    throw SceneIOError.badLine(file: file, line: sc.line, expected: "finite vertex coordinates", found: "\(p)")
                }
                vs.append(p)
                guard vs.count <= 64 else { throw SceneIOError.badLine(file: file, line: sc.line, expected: "endloop", found: "vertex") }
            }
            try expect("endfacet")
            if vs.count >= 3 { for j in 1..<(vs.count - 1) { append(&pos, &nrm, n, vs[0], vs[j], vs[j + 1]); tris += 1 } }
            if tris & 0x3FFF == 0 { progress?(sc.pos, view.count) }
        }
        progress?(view.count, view.count)
        return finish(pos, nrm, tris, variant: "ascii")
    }
}
