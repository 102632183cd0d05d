// SceneIO — PLYReader: decides what a PLY holds (3DGS, compressed 3DGS, mesh, points) and reads it.
import RenderCore

/// Reads PLY files of every encoding into meshes, point clouds or splat clouds.
enum PLYReader {
    /// What a PLY header describes.
    enum Kind: String { case gaussians = "3DGS", compressed = "PlayCanvas compressed 3DGS", mesh, points }

    /// Classifies a parsed header.
    static func kind(of h: PLYHeader) -> Kind {
        if let c = h.element("chunk"), let v = h.element("vertex"), v.has("packed_position"), c.count >= 0 { return .compressed }
        if let v = h.element("vertex"), v.has("f_dc_0", "opacity", "scale_0", "rot_0") { return .gaussians }
        if let f = h.element("face"), f.count > 0 { return .mesh }
        if let t = h.element("tristrips"), t.count > 0 { return .mesh }
        return .points
    }

    /// Reads a whole PLY file from its bytes.
    static func read(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let h = try PLYHeader.parse(view)
        let k = kind(of: h)
        var warnings = h.warnings
        let mode = k == .gaussians || k == .compressed ? renderMode(h, file: view.file, warnings: &warnings) : nil
        let scene: LoadedScene
        switch k {
        case .gaussians, .compressed:
            var cloud = k == .gaussians ? try readSplats(h, view, progress: progress) : try readCompressed(h, view, progress: progress)
            if mode == .twoD { SplatRenderMode.flattenSurfels(&cloud) }
            scene = .splats(cloud)
        case .mesh: scene = .mesh(try readMesh(h, view, progress: progress))
        case .points: scene = .points(try readPoints(h, view, progress: progress))
        }
        let elements = h.elements.map { e in
            SceneInfo.Element(name: e.name, count: e.count, properties: e.properties.map { p in
                p.listCount.map { "list \($0.name) \(p.type.name) \(p.name)" } ?? "\(p.type.name) \(p.name)"
            })
        }
        return ReadResult(scene: scene, format: .ply, variant: "\(h.encoding.rawValue) \(k.rawValue)",
                          version: h.version, elements: elements, warnings: warnings,
                          antialiased: mode.map { $0 == .mip }, renderMode: mode)
    }

    /// The splats' render mode: the header's `comment SplatRenderMode: …` (an unknown value is a
    /// warning naming it, and the splats are drawn as plain 3D Gaussians), or `2dgs` when the
    /// vertices have no `scale_2` (2DGS writes two scales), whatever the comment says.
    static func renderMode(_ h: PLYHeader, file: String, warnings: inout [String]) -> SplatRenderMode? {
        var mode: SplatRenderMode?
        if let r = h.renderMode {
            mode = SplatRenderMode(comment: r.value)
            if mode == nil {
                warnings.append("\(file): line \(r.line): unknown SplatRenderMode \(SceneIOError.clean(r.value)) (expected default, mip or 2dgs); drawn as plain 3D Gaussians")
            }
        }
        if kind(of: h) == .gaussians, let v = h.element("vertex"), !v.isScalar("scale_2") { mode = .twoD }
        return mode
    }

    /// The vertex element, which must have x, y and z.
    static func vertexElement(_ h: PLYHeader, _ file: String) throws -> PLYElement {
        guard let v = h.element("vertex") else {
            throw SceneIOError.badLine(file: file, line: h.bodyLine - 1, expected: "an element vertex", found: h.elements.map(\.name).joined(separator: ","))
        }
        guard v.has("x", "y", "z") else {
            throw SceneIOError.badLine(file: file, line: v.line, expected: "scalar vertex properties x, y, z", found: v.properties.map(\.name).joined(separator: ","))
        }
        return v
    }

    /// Positions from x/y/z columns; non-finite values are errors.
    static func positions(_ c: PLYColumns, _ file: String, rowNumber: (Int) -> Int = { $0 }) throws -> [Vec3] {
        guard let x = c.scalars["x"], let y = c.scalars["y"], let z = c.scalars["z"] else { return [] }
        var out = [Vec3](); out.reserveCapacity(c.count)
        for i in 0..<c.count {
            let p = Vec3(Float(x[i]), Float(y[i]), Float(z[i]))
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.badValue(file: file, element: "vertex", row: rowNumber(i), expected: "finite x y z", found: "\(x[i]) \(y[i]) \(z[i])")
            }
            out.append(p)
        }
        return out
    }

    /// RGBA colours from red/green/blue[/alpha] (integers scaled by their type's maximum), or [].
    static func colors(_ c: PLYColumns, _ v: PLYElement) -> [Vec4] {
        guard v.has("red", "green", "blue"), let r = c.scalars["red"], let g = c.scalars["green"], let b = c.scalars["blue"],
              let ri = v.index(of: "red") else { return [] }
        let a = v.isScalar("alpha") ? c.scalars["alpha"] : nil
        let scale = Float(1 / (v.properties[ri].type.integerMax ?? 1))
        var aScale: Float = 1
        if v.isScalar("alpha"), let ai = v.index(of: "alpha") { aScale = Float(1 / (v.properties[ai].type.integerMax ?? 1)) }
        var out = [Vec4](); out.reserveCapacity(c.count)
        for i in 0..<c.count {
            let col = Vec4(Float(r[i]) * scale, Float(g[i]) * scale, Float(b[i]) * scale, a.map { Float($0[i]) * aScale } ?? 1)
            out.append(col.replacing(with: 0, where: .!(col .>= 0)).replacing(with: 1, where: col .> 1))
        }
        return out
    }

    /// Reads a vertex-only PLY as a point cloud.
    static func readPoints(_ h: PLYHeader, _ view: ByteView, progress: SceneLoadProgress?) throws -> PointCloud {
        let v = try vertexElement(h, view.file)
        let cols = try PLYBody.decode(h, view, wanted: ["vertex": ["x", "y", "z", "red", "green", "blue", "alpha"]], progress: progress)
        guard let c = cols["vertex"] else { return PointCloud(positions: []) }
        return PointCloud(positions: try positions(c, view.file), colors: colors(c, v))
    }
}
