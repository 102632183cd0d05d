// SceneIO — PLYReader+Mesh: faces (fan-triangulated polygons) and triangle strips into TriangleMesh.
import RenderCore

extension PLYReader {
    /// Texture-coordinate property pairs accepted, in order of preference.
    static let uvNames: [(String, String)] = [("s", "t"), ("u", "v"), ("texture_u", "texture_v"), ("texture_s", "texture_t")]

    /// Reads a PLY mesh: vertex attributes plus `face` and/or `tristrips`.
    static func readMesh(_ h: PLYHeader, _ view: ByteView, progress: SceneLoadProgress?) throws -> TriangleMesh {
        let file = view.file
        let v = try vertexElement(h, file)
        var vNames: Set<String> = ["x", "y", "z", "nx", "ny", "nz", "red", "green", "blue", "alpha"]
        for (a, b) in uvNames { vNames.insert(a); vNames.insert(b) }
        let idx: Set<String> = ["vertex_indices", "vertex_index"]
        let cols = try PLYBody.decode(h, view, wanted: ["vertex": vNames, "face": idx, "tristrips": idx], progress: progress)
        guard let vc = cols["vertex"] else { throw SceneIOError.badLine(file: file, line: v.line, expected: "vertex data", found: "none") }
        let pos = try positions(vc, file)
        var normals: [Vec3] = []
        if let nx = vc.scalars["nx"], let ny = vc.scalars["ny"], let nz = vc.scalars["nz"] {
            normals = (0..<vc.count).map { Vec3(Float(nx[$0]), Float(ny[$0]), Float(nz[$0])) }
        }
        var uvs: [Vec2] = []
        for (a, b) in uvNames {
            if let u = vc.scalars[a], let w = vc.scalars[b] { uvs = (0..<vc.count).map { Vec2(Float(u[$0]), Float(w[$0])) }; break }
        }
        let n = pos.count
        var indices: [UInt32] = []
        func vertexIndex(_ d: Double, _ element: String, _ row: Int) throws -> UInt32 {
            guard let i = exactInt(d), i >= 0, i < n else {
                throw SceneIOError.badValue(file: file, element: element, row: row, expected: "a vertex index in 0..<\(n)", found: "\(d)")
            }
            return UInt32(i)
        }
        if let f = cols["face"], let list = f.lists["vertex_indices"] ?? f.lists["vertex_index"] {
            indices.reserveCapacity(f.count * 3)
            for row in 0..<f.count {
                let items = list.items(row)
                guard items.count >= 3 else { continue }           // points and lines: nothing to draw
                let a = try vertexIndex(items[items.startIndex], "face", row)
                var prev = try vertexIndex(items[items.startIndex + 1], "face", row)
                for j in (items.startIndex + 2)..<items.endIndex {
                    let c = try vertexIndex(items[j], "face", row)
                    indices.append(a); indices.append(prev); indices.append(c)
                    prev = c
                }
            }
        }
        if let t = cols["tristrips"], let list = t.lists["vertex_indices"] ?? t.lists["vertex_index"] {
            for row in 0..<t.count {
                var strip: [UInt32] = []
                for d in list.items(row) {
                    if d == -1 { strip.removeAll(keepingCapacity: true); continue }
                    strip.append(try vertexIndex(d, "tristrips", row))
                    let k = strip.count - 3
                    guard k >= 0 else { continue }
                    var a = strip[k], b = strip[k + 1]
                    let c = strip[k + 2]
                    if k & 1 == 1 { swap(&a, &b) }                  // odd triangles flip to keep the winding
                    if a == b || b == c || a == c { continue }      // degenerate joins
                    indices.append(a); indices.append(b); indices.append(c)
                }
            }
        }
        return TriangleMesh(positions: pos, indices: indices, normals: normals, uvs: uvs, colors: colors(vc, v))
    }
}
