// SceneIO — OBJReader: Wavefront OBJ (v, vt, vn, f with every index form, polygons fanned) + MTL.
import Foundation
import RenderCore
#if !SCENEIO_NO_IMAGEIO
import ImageIO
#endif

/// Reads OBJ text into a `TriangleMesh`. Vertices are unique (position, uv, normal) index
/// triples; `usemtl` starts a group; `mtllib` files are read relative to the OBJ's folder.
enum OBJReader {
    /// One corner of a face: indices into v / vt / vn (−1 when absent).
    struct Corner: Hashable { var v: Int, t: Int, n: Int }

    /// Reads OBJ bytes; `directory` (the .obj's folder) enables `mtllib` and textures.
    static func read(_ view: ByteView, directory: String?, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = view.file
        var sc = TextScanner(view)
        var vs: [Vec3] = [], vts: [Vec2] = [], vns: [Vec3] = []
        var map: [Corner: UInt32] = [:]
        var positions: [Vec3] = [], uvs: [Vec2] = [], normals: [Vec3] = []
        var indices: [UInt32] = []
        var materials: [TriangleMesh.Material] = []
        var library: [String: TriangleMesh.Material] = [:]
        var groups: [TriangleMesh.Group] = []
        var faceCount = 0
        var corners: [Corner] = []
        func num(_ r: Range<Int>, _ line: Int, _ what: String) throws -> Float {
            guard let d = parseNumber(view.bytes, r) else {
                throw SceneIOError.badLine(file: file, line: line, expected: what, found: sc.string(r))
            }
            let f = Float(d)
            guard f.isFinite else { throw SceneIOError.badLine(file: file, line: line, expected: what + " (finite)", found: sc.string(r)) }
            return f
        }
        func resolve(_ r: Range<Int>, _ count: Int, _ line: Int, _ what: String) throws -> Int {
            guard let d = parseNumber(view.bytes, r), let i = exactInt(d), i != 0 else {
                throw SceneIOError.badLine(file: file, line: line, expected: "a non-zero \(what) index", found: sc.string(r))
            }
            let k = i > 0 ? i - 1 : count + i
            guard k >= 0, k < count else {
                throw SceneIOError.badLine(file: file, line: line, expected: "a \(what) index within 1…\(count) (or −\(count)…−1)", found: sc.string(r))
            }
            return k
        }
        var lineCounter = 0
        while true {
            let line = sc.line
            guard let r = sc.restOfLine() else { break }
            lineCounter += 1
            if lineCounter & 0x3FFF == 0 { progress?(sc.pos, view.count) }
            let t = tokens(in: r, of: view.bytes)
            guard let k = t.first else { continue }
            if sc.equals(k, "v") {
                guard t.count >= 4 else { throw SceneIOError.badLine(file: file, line: line, expected: "v x y z", found: sc.string(r)) }
                vs.append(Vec3(try num(t[1], line, "x"), try num(t[2], line, "y"), try num(t[3], line, "z")))
            } else if sc.equals(k, "vt") {
                guard t.count >= 2 else { throw SceneIOError.badLine(file: file, line: line, expected: "vt u [v]", found: sc.string(r)) }
                vts.append(Vec2(try num(t[1], line, "u"), t.count >= 3 ? try num(t[2], line, "v") : 0))
            } else if sc.equals(k, "vn") {
                guard t.count >= 4 else { throw SceneIOError.badLine(file: file, line: line, expected: "vn x y z", found: sc.string(r)) }
                vns.append(Vec3(try num(t[1], line, "x"), try num(t[2], line, "y"), try num(t[3], line, "z")))
            } else if sc.equals(k, "f") {
                corners.removeAll(keepingCapacity: true)
                for tok in t.dropFirst() {
                    // v, v/vt, v//vn, v/vt/vn
                    var parts: [Range<Int>] = []
                    var s = tok.lowerBound
                    for i in tok where view.bytes[i] == UInt8(ascii: "/") { parts.append(s..<i); s = i + 1 }
                    parts.append(s..<tok.upperBound)
                    guard parts.count <= 3, !parts[0].isEmpty else {
                        throw SceneIOError.badLine(file: file, line: line, expected: "a face corner v, v/vt, v//vn or v/vt/vn", found: sc.string(tok))
                    }
                    let v = try resolve(parts[0], vs.count, line, "vertex")
                    let vt = parts.count >= 2 && !parts[1].isEmpty ? try resolve(parts[1], vts.count, line, "texture") : -1
                    let vn = parts.count >= 3 && !parts[2].isEmpty ? try resolve(parts[2], vns.count, line, "normal") : -1
                    corners.append(Corner(v: v, t: vt, n: vn))
                }
                guard corners.count >= 3 else { continue }
                var ids: [UInt32] = []
                for c in corners {
                    if let id = map[c] { ids.append(id); continue }
                    let id = UInt32(positions.count)
                    positions.append(vs[c.v])
                    uvs.append(c.t >= 0 ? vts[c.t] : Vec2(0, 0))
                    normals.append(c.n >= 0 ? vns[c.n] : Vec3(0, 0, 0))
                    map[c] = id
                    ids.append(id)
                }
                for j in 1..<(ids.count - 1) { indices.append(ids[0]); indices.append(ids[j]); indices.append(ids[j + 1]) }
                faceCount += 1
            } else if sc.equals(k, "usemtl") {
                let name = t.count >= 2 ? sc.string(t[1].lowerBound..<t[t.count - 1].upperBound) : "default"
                let tri = indices.count / 3
                closeGroup(&groups, tri)
                var mi = materials.firstIndex { $0.name == name }
                if mi == nil { materials.append(library[name] ?? TriangleMesh.Material(name: name)); mi = materials.count - 1 }
                groups.append(TriangleMesh.Group(firstTriangle: tri, triangleCount: 0, material: mi ?? 0))
            } else if sc.equals(k, "mtllib"), let dir = directory, t.count >= 2 {
                let name = sc.string(t[1].lowerBound..<t[t.count - 1].upperBound)
                let path = (dir as NSString).appendingPathComponent(name)
                for m in (try? MTLReader.read(path: path)) ?? [] where library[m.name] == nil { library[m.name] = m }
            }
            // o, g, s, l, p and unknown keywords are ignored.
        }
        closeGroup(&groups, indices.count / 3)
        // Materials named by usemtl before the mtllib line was seen: fill from the library now.
        for i in materials.indices { if let m = library[materials[i].name], materials[i].texture == nil { materials[i] = m } }
        // Groups: triangles before the first usemtl use a default material.
        if !groups.isEmpty, let first = groups.first, first.firstTriangle > 0 {
            materials.append(TriangleMesh.Material())
            groups.insert(TriangleMesh.Group(firstTriangle: 0, triangleCount: first.firstTriangle, material: materials.count - 1), at: 0)
        }
        groups.removeAll { $0.triangleCount == 0 }
        if materials.isEmpty { materials = [TriangleMesh.Material()] }
        let hasUV = !vts.isEmpty, hasN = !vns.isEmpty
        var mesh = TriangleMesh(positions: positions, indices: indices, normals: hasN ? normals : [], uvs: hasUV ? uvs : [],
                                materials: materials, groups: groups)
        if hasN && normals.contains(where: { $0 == .zero }) { mesh.normals = []; mesh.computeNormalsIfMissing() }
        progress?(view.count, view.count)
        return ReadResult(scene: .mesh(mesh), format: .obj, variant: "text", version: "",
                          elements: [SceneInfo.Element(name: "v", count: vs.count, properties: []),
                                     SceneInfo.Element(name: "vt", count: vts.count, properties: []),
                                     SceneInfo.Element(name: "vn", count: vns.count, properties: []),
                                     SceneInfo.Element(name: "f", count: faceCount, properties: []),
                                     SceneInfo.Element(name: "usemtl", count: groups.count, properties: materials.map(\.name))])
    }

    /// Sets the last group's triangle count to end at `tri`.
    static func closeGroup(_ groups: inout [TriangleMesh.Group], _ tri: Int) {
        guard let last = groups.indices.last else { return }
        groups[last].triangleCount = tri - groups[last].firstTriangle
    }
}

/// Reads MTL material libraries: `newmtl`, `Kd`, `d`/`Tr` and `map_Kd` (relative to the .mtl).
enum MTLReader {
    static func read(path: String) throws -> [TriangleMesh.Material] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let dir = (path as NSString).deletingLastPathComponent
        return data.withUnsafeBytes { raw in
            let view = ByteView(bytes: raw, file: path)
            var sc = TextScanner(view)
            var out: [TriangleMesh.Material] = []
            while let r = sc.restOfLine() {
                let t = tokens(in: r, of: raw)
                guard let k = t.first else { continue }
                let key = sc.string(k)
                func f(_ i: Int) -> Float? { i < t.count ? parseNumber(raw, t[i]).map { Float($0) }.flatMap { $0.isFinite ? $0 : nil } : nil }
                if key == "newmtl" {
                    out.append(TriangleMesh.Material(name: t.count >= 2 ? sc.string(t[1].lowerBound..<t[t.count - 1].upperBound) : "unnamed"))
                } else if out.isEmpty {
                    continue
                } else if key == "Kd", let r = f(1), let g = f(2), let b = f(3) {
                    out[out.count - 1].baseColor = Vec4(r, g, b, out[out.count - 1].baseColor.w)
                } else if key == "d", let a = f(1) {
                    out[out.count - 1].baseColor.w = min(1, max(0, a))
                } else if key == "map_Kd", t.count >= 2 {
                    // Options (-s, -o, …) precede the file name; take the last token.
                    let name = sc.string(t[t.count - 1]).replacingOccurrences(of: "\\", with: "/")
                    out[out.count - 1].texture = loadTexture((dir as NSString).appendingPathComponent(name))
                }
            }
            return out
        }
    }

    /// Loads a texture picture, or nil when it can't be read (the material keeps its colour).
    static func loadTexture(_ path: String) -> Texture? {
        #if SCENEIO_NO_IMAGEIO
        return nil
        #else
        return (try? ImageFile.load(path)).map { Texture($0) }
        #endif
    }
}
