// SceneIO — PLYReader+Splats: 3DGS PLY (f_dc, f_rest, opacity, scale, rot) into SplatCloud.
//
// Two decoders: `readSplatsFast` (binary little-endian float32 rows, decoded by byte offsets
// computed once, straight into the arrays) and `readSplatsReference` (the generic column
// decoder, every encoding and type). Tests check one against the other.
import Foundation
import RenderCore

/// Where each 3DGS attribute sits in a vertex row.
struct GaussianLayout {
    /// Number of f_rest_* properties in the file (0, 9, 24, 45 or 72).
    var fileRest: Int
    /// SH degree kept (0…4: every coefficient in the file).
    var degree: Int

    /// Validates the f_rest count of a vertex element and derives the degree.
    init(_ v: PLYElement, file: String) throws {
        var n = 0
        while v.isScalar("f_rest_\(n)") { n += 1 }
        let deg: Int
        switch n {
        case 0: deg = 0
        case 9: deg = 1
        case 24: deg = 2
        case 45: deg = 3
        case 72: deg = 4        // kept whole; the renderers evaluate bands 0–3
        default:
            throw SceneIOError.badLine(file: file, line: v.line, expected: "0, 9, 24, 45 or 72 f_rest_* properties", found: "\(n)")
        }
        // scale_2 may be missing: a 2DGS PLY (surfels have two scales; `PLYReader.renderMode`).
        for name in ["f_dc_0", "f_dc_1", "f_dc_2", "opacity", "scale_0", "scale_1", "rot_0", "rot_1", "rot_2", "rot_3"]
        where !v.isScalar(name) {
            throw SceneIOError.badLine(file: file, line: v.line, expected: "3DGS scalar vertex property \(name)", found: "none")
        }
        fileRest = n; degree = deg
    }

    /// Rest coefficients per channel in the file.
    var filePerChannel: Int { fileRest / 3 }
    /// Rest coefficients per channel kept.
    var keptPerChannel: Int { SplatCloud.restCount(degree: degree) }

    /// The file's f_rest index holding kept coefficient k of channel c (channel-major in files).
    @inline(__always) func fileRestIndex(k: Int, c: Int) -> Int { c * filePerChannel + k }
}

@inline(__always) func sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-x)) }

extension PLYReader {
    /// Reads a 3DGS PLY, through the fast path when the layout allows it.
    static func readSplats(_ h: PLYHeader, _ view: ByteView, progress: SceneLoadProgress?) throws -> SplatCloud {
        if let cloud = try readSplatsFast(h, view, progress: progress) { return cloud }
        return try readSplatsReference(h, view, progress: progress)
    }

    /// The slow, obvious decoder: generic columns, then per-splat maths.
    static func readSplatsReference(_ h: PLYHeader, _ view: ByteView, progress: SceneLoadProgress?) throws -> SplatCloud {
        let file = view.file
        let v = try vertexElement(h, file)
        let layout = try GaussianLayout(v, file: file)
        let cols = try PLYBody.decode(h, view, wanted: ["vertex": splatPropertyNames(layout)], progress: progress)
        guard let c = cols["vertex"] else { return SplatCloud(shDegree: layout.degree) }
        return try referenceSplats(c, layout: layout, file: file)
    }

    /// The vertex properties a 3DGS splat is made of (`scale_2` may be missing: 2DGS).
    static func splatPropertyNames(_ layout: GaussianLayout) -> Set<String> {
        var names: Set<String> = ["x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2", "opacity", "scale_0", "scale_1", "scale_2",
                                  "rot_0", "rot_1", "rot_2", "rot_3"]
        for j in 0..<layout.fileRest { names.insert("f_rest_\(j)") }
        return names
    }

    /// The per-splat maths on decoded columns (`splatPropertyNames`): exp of the scales, sigmoid
    /// of the opacity, normalised rotation, the kept rest coefficients. `rowNumber(i)` is the
    /// file row of the columns' i-th row (for errors): the whole-file reader and `PLYRowStream`'s
    /// blocks both come here.
    static func referenceSplats(_ c: PLYColumns, layout: GaussianLayout, file: String,
                                rowNumber: (Int) -> Int = { $0 }) throws -> SplatCloud {
        func col(_ s: String) -> [Double] { c.scalars[s] ?? [] }
        let pos = try positions(c, file, rowNumber: rowNumber)
        let dc0 = col("f_dc_0"), dc1 = col("f_dc_1"), dc2 = col("f_dc_2"), op = col("opacity")
        let s0 = col("scale_0"), s1 = col("scale_1"), s2 = col("scale_2")
        let r0 = col("rot_0"), r1 = col("rot_1"), r2 = col("rot_2"), r3 = col("rot_3")
        let rest = (0..<layout.fileRest).map { col("f_rest_\($0)") }
        var cloud = SplatCloud(shDegree: layout.degree)
        cloud.reserveCapacity(c.count)
        let kept = layout.keptPerChannel
        var r = [Float](repeating: 0, count: kept * 3)
        for i in 0..<c.count {
            for k in 0..<kept { for ch in 0..<3 { r[k * 3 + ch] = Float(rest[layout.fileRestIndex(k: k, c: ch)][i]) } }
            // Without scale_2 (2DGS) the thickness is left to `SplatRenderMode.flattenSurfels`.
            cloud.append(position: pos[i],
                         scale: Vec3(expf(Float(s0[i])), expf(Float(s1[i])), s2.isEmpty ? .infinity : expf(Float(s2[i]))),
                         rotation: Quaternion(w: Float(r0[i]), x: Float(r1[i]), y: Float(r2[i]), z: Float(r3[i])).normalized,
                         opacity: sigmoid(Float(op[i])),
                         dc: Vec3(Float(dc0[i]), Float(dc1[i]), Float(dc2[i])), rest: r)
        }
        return cloud
    }

    /// The fast decoder for binary little-endian files whose 3DGS properties are all float32
    /// and whose vertex rows have a fixed size (no lists); nil when the layout doesn't allow it.
    /// - Complexity: one pass over the rows; every attribute read by a precomputed byte offset.
    static func readSplatsFast(_ h: PLYHeader, _ view: ByteView, progress: SceneLoadProgress?) throws -> SplatCloud? {
        guard let rows = try PLYSplatRows(h, file: view.file) else { return nil }
        let start = rows.start, stride = rows.stride, v = rows.vertex, layout = rows.layout, file = view.file
        let (ox, oy, oz) = (rows.x, rows.y, rows.z), (od0, od1, od2) = (rows.dc.0, rows.dc.1, rows.dc.2), oop = rows.opacity
        let (os0, os1, os2) = (rows.scale.0, rows.scale.1, rows.scale.2)
        let (or0, or1, or2, or3) = (rows.rot.0, rows.rot.1, rows.rot.2, rows.rot.3)
        let restOffsets = rows.rest, kept = layout.keptPerChannel
        let n = v.count
        guard let total = SizeMath.mul(n, stride), start <= view.count, total <= view.count - start else {
            throw SceneIOError.truncated(file: file, offset: min(start, view.count), expected: "\(n) vertex rows of \(stride) bytes (header line \(v.line))")
        }
        let restPer = kept * 3
        guard let restCount = SizeMath.mul(n, restPer) else { return nil }
        let b = view.bytes
        var badRow = -1
        var positions = [Vec3](filling: n) { pb, done in
            for i in 0..<n {
                let r = start &+ i &* stride
                let p = Vec3(view.f32(r &+ ox), view.f32(r &+ oy), view.f32(r &+ oz))
                if badRow < 0 && !(p.x.isFinite && p.y.isFinite && p.z.isFinite) { badRow = i }
                pb[i] = p
            }
            done = n
        }
        if badRow >= 0 {
            let p = positions[badRow]
            throw SceneIOError.badValue(file: file, element: "vertex", row: badRow, expected: "finite x y z", found: "\(p.x) \(p.y) \(p.z)")
        }
        progress?(start + total / 4, view.count)
        let scales = [Vec3](filling: n) { pb, done in
            for i in 0..<n {
                let r = start &+ i &* stride
                pb[i] = Vec3(expf(view.f32(r &+ os0)), expf(view.f32(r &+ os1)), expf(view.f32(r &+ os2)))
            }
            done = n
        }
        let rotations = [Quaternion](filling: n) { pb, done in
            for i in 0..<n {
                let r = start &+ i &* stride
                pb[i] = Quaternion(w: view.f32(r &+ or0), x: view.f32(r &+ or1), y: view.f32(r &+ or2), z: view.f32(r &+ or3)).normalized
            }
            done = n
        }
        let opacities = [Float](filling: n) { pb, done in
            for i in 0..<n { pb[i] = sigmoid(view.f32(start &+ i &* stride &+ oop)) }
            done = n
        }
        let dc = [Vec3](filling: n) { pb, done in
            for i in 0..<n {
                let r = start &+ i &* stride
                pb[i] = Vec3(view.f32(r &+ od0), view.f32(r &+ od1), view.f32(r &+ od2))
            }
            done = n
        }
        progress?(start + total / 2, view.count)
        let rest = [Float](filling: restCount) { pb, done in
            restOffsets.withUnsafeBufferPointer { ro in
                guard let dst = pb.baseAddress else { return }
                for i in 0..<n {
                    let r = b.baseAddress! + (start &+ i &* stride)
                    let d = dst + i &* restPer
                    for m in 0..<restPer {
                        d[m] = Float(bitPattern: UInt32(littleEndian: (r + ro[m]).loadUnaligned(as: UInt32.self)))
                    }
                }
            }
            done = restCount
        }
        progress?(start + total, view.count)
        positions.reserveCapacity(n)
        return SplatCloud(positions: positions, scales: scales, rotations: rotations, opacities: opacities, dc: dc,
                          shDegree: layout.degree, shRest: rest)
    }
}

/// Where a binary little-endian 3DGS PLY's rows are and where each attribute sits in a row, when
/// every attribute is a float32 in fixed-size rows (the fast path's and `PLYSplatStream`'s layout).
struct PLYSplatRows {
    let vertex: PLYElement
    let layout: GaussianLayout
    /// Byte offset of the first vertex row, and bytes per row.
    let start: Int, stride: Int
    /// Byte offsets within a row.
    let x: Int, y: Int, z: Int, opacity: Int
    let dc: (Int, Int, Int), scale: (Int, Int, Int), rot: (Int, Int, Int, Int)
    /// Offsets of the kept rest coefficients, channel innermost (`SplatCloud.shRest` order).
    let rest: [Int]

    /// nil when the file is not binary little-endian or an attribute is not a float32 in fixed rows.
    init?(_ h: PLYHeader, file: String) throws {
        guard h.encoding == .binaryLittleEndian else { return nil }
        let v = try PLYReader.vertexElement(h, file)
        let layout = try GaussianLayout(v, file: file)
        guard let stride = v.fixedRowSize, stride > 0 else { return nil }
        // Byte offset of the vertex element: every element before it must have fixed rows.
        var start = h.bodyOffset
        for e in h.elements {
            if e.name == "vertex" { break }
            guard let s = e.fixedRowSize, let t = SizeMath.mul(e.count, s), let ns = SizeMath.add(start, t) else { return nil }
            start = ns
        }
        var offsets: [String: Int] = [:]
        var po = 0
        for p in v.properties {
            if offsets[p.name] == nil { offsets[p.name] = p.type == .float32 ? po : -1 }
            po += p.type.size
        }
        func off(_ s: String) -> Int? { offsets[s].flatMap { $0 >= 0 ? $0 : nil } }
        guard let ox = off("x"), let oy = off("y"), let oz = off("z"),
              let od0 = off("f_dc_0"), let od1 = off("f_dc_1"), let od2 = off("f_dc_2"), let oop = off("opacity"),
              let os0 = off("scale_0"), let os1 = off("scale_1"), let os2 = off("scale_2"),
              let or0 = off("rot_0"), let or1 = off("rot_1"), let or2 = off("rot_2"), let or3 = off("rot_3") else { return nil }
        let kept = layout.keptPerChannel
        var restOffsets = [Int](repeating: 0, count: kept * 3)
        for k in 0..<kept { for c in 0..<3 {
            guard let o = off("f_rest_\(layout.fileRestIndex(k: k, c: c))") else { return nil }
            restOffsets[k * 3 + c] = o
        } }
        vertex = v; self.layout = layout; self.start = start; self.stride = stride
        x = ox; y = oy; z = oz; opacity = oop; dc = (od0, od1, od2); scale = (os0, os1, os2); rot = (or0, or1, or2, or3)
        rest = restOffsets
    }
}
