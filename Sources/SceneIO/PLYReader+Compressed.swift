// SceneIO — PLYReader+Compressed: PlayCanvas compressed PLY (chunk + packed vertex + optional sh),
// decoded as playcanvas/splat-transform's decompress-ply does.
import Foundation
import RenderCore

extension PLYReader {
    /// Splats per chunk row.
    static let chunkSize = 256

    /// Reads a PlayCanvas compressed PLY into a splat cloud.
    static func readCompressed(_ h: PLYHeader, _ view: ByteView, progress: SceneLoadProgress?) throws -> SplatCloud {
        let file = view.file
        guard let ce = h.element("chunk"), let ve = h.element("vertex") else {
            throw SceneIOError.badLine(file: file, line: 1, expected: "elements chunk and vertex", found: h.elements.map(\.name).joined(separator: ","))
        }
        let chunkNames = ["min_x", "min_y", "min_z", "max_x", "max_y", "max_z",
                          "min_scale_x", "min_scale_y", "min_scale_z", "max_scale_x", "max_scale_y", "max_scale_z"]
        let colorNames = ["min_r", "min_g", "min_b", "max_r", "max_g", "max_b"]
        for name in chunkNames where !ce.isScalar(name) {
            throw SceneIOError.badLine(file: file, line: ce.line, expected: "scalar chunk property \(name)", found: "none")
        }
        for name in ["packed_position", "packed_rotation", "packed_scale", "packed_color"] where !ve.isScalar(name) {
            throw SceneIOError.badLine(file: file, line: ve.line, expected: "scalar vertex property \(name)", found: "none")
        }
        let n = ve.count
        let needChunks = (n + chunkSize - 1) / chunkSize
        guard ce.count == needChunks else {
            throw SceneIOError.badLine(file: file, line: ce.line, expected: "\(needChunks) chunk rows for \(n) splats", found: "\(ce.count)")
        }
        var shNames: [String] = []
        var fileRest = 0
        if let se = h.element("sh") {
            while se.isScalar("f_rest_\(fileRest)") { shNames.append("f_rest_\(fileRest)"); fileRest += 1 }
            guard [0, 9, 24, 45].contains(fileRest) else {
                throw SceneIOError.badLine(file: file, line: se.line, expected: "0, 9, 24 or 45 f_rest_* properties", found: "\(fileRest)")
            }
            guard se.count == n || fileRest == 0 else {
                throw SceneIOError.badLine(file: file, line: se.line, expected: "\(n) sh rows", found: "\(se.count)")
            }
        }
        let degree = [0: 0, 9: 1, 24: 2, 45: 3][fileRest] ?? 0
        let cols = try PLYBody.decode(h, view, wanted: [
            "chunk": Set(chunkNames + colorNames),
            "vertex": ["packed_position", "packed_rotation", "packed_scale", "packed_color"],
            "sh": Set(shNames)], progress: progress)
        guard let cc = cols["chunk"], let vc = cols["vertex"] else { return SplatCloud(shDegree: degree) }
        func col(_ c: PLYColumns, _ s: String) -> [Double] { c.scalars[s] ?? [] }
        let ch = chunkNames.map { col(cc, $0) }
        let hasColor = colorNames.allSatisfy { ce.isScalar($0) }
        let cr = hasColor ? colorNames.map { col(cc, $0) } : []
        func packed(_ s: String) -> [UInt32] { (vc.scalars[s] ?? []).map { UInt32(truncatingIfNeeded: exactInt($0) ?? 0) } }
        let pp = packed("packed_position"), pr = packed("packed_rotation"), ps = packed("packed_scale"), pc = packed("packed_color")
        let shCols = shNames.map { cols["sh"]?.scalars[$0] ?? [] }

        var cloud = SplatCloud(shDegree: degree)
        cloud.reserveCapacity(n)
        let kept = SplatCloud.restCount(degree: degree)
        var rest = [Float](repeating: 0, count: kept * 3)
        // Double arithmetic, as the JavaScript reference does, rounded to Float at the end.
        @inline(__always) func lerp(_ a: Double, _ b: Double, _ t: Double) -> Float { Float(a * (1 - t) + b * t) }
        @inline(__always) func unpack111011(_ v: UInt32) -> SIMD3<Double> {
            SIMD3(Double(v >> 21) / 2047, Double((v >> 11) & 1023) / 1023, Double(v & 2047) / 2047)
        }
        for i in 0..<n {
            let c = i / chunkSize
            let p = unpack111011(pp[i])
            let pos = Vec3(lerp(ch[0][c], ch[3][c], p.x), lerp(ch[1][c], ch[4][c], p.y), lerp(ch[2][c], ch[5][c], p.z))
            guard pos.x.isFinite, pos.y.isFinite, pos.z.isFinite else {
                throw SceneIOError.badValue(file: file, element: "vertex", row: i, expected: "a finite position (chunk bounds)", found: "\(pos)")
            }
            let s = unpack111011(ps[i])
            let scale = Vec3(expf(lerp(ch[6][c], ch[9][c], s.x)), expf(lerp(ch[7][c], ch[10][c], s.y)), expf(lerp(ch[8][c], ch[11][c], s.z)))
            // Rotation: largest of (w, x, y, z) in bits 30–31; the others ascending from bits 20–29.
            let r = pr[i]
            let norm = Float(2).squareRoot()
            let a = (Float((r >> 20) & 1023) / 1023 - 0.5) * norm
            let b = (Float((r >> 10) & 1023) / 1023 - 0.5) * norm
            let d = (Float(r & 1023) / 1023 - 0.5) * norm
            let m = max(0, 1 - (a * a + b * b + d * d)).squareRoot()
            let q: Quaternion
            switch r >> 30 {
            case 0: q = Quaternion(w: m, x: a, y: b, z: d)
            case 1: q = Quaternion(w: a, x: m, y: b, z: d)
            case 2: q = Quaternion(w: a, x: b, y: m, z: d)
            default: q = Quaternion(w: a, x: b, y: d, z: m)
            }
            let col = pc[i]
            let u = SIMD3<Double>(Double(col >> 24) / 255, Double((col >> 16) & 255) / 255, Double((col >> 8) & 255) / 255)
            let rgb = hasColor ? Vec3(lerp(cr[0][c], cr[3][c], u.x), lerp(cr[1][c], cr[4][c], u.y), lerp(cr[2][c], cr[5][c], u.z))
                               : Vec3(Float(u.x), Float(u.y), Float(u.z))
            let opacity = Float(col & 255) / 255
            if kept > 0 {
                let per = fileRest / 3
                for k in 0..<kept { for chn in 0..<3 {
                    let raw = shCols[chn * per + k][i]
                    let u: Float = raw <= 0 ? 0 : raw >= 255 ? 1 : (Float(raw) + 0.5) / 256
                    rest[k * 3 + chn] = (u - 0.5) * 8
                } }
            }
            cloud.append(position: pos, scale: scale, rotation: q.normalized, opacity: opacity,
                         dc: (rgb - 0.5) / SplatCloud.shC0, rest: rest)
        }
        return cloud
    }
}
