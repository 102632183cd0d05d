import Foundation

import RenderCore

/// The parallax-cube room: a box whose open front face is exactly the screen rectangle and
/// which extends `depth` metres behind it. Its five inner walls show pictures (photos, or
/// generated labelled grids), and a few bullseye targets on sticks float inside for depth
/// cues, as in Johnny Lee's head-tracking demo.
public struct CubeRoom: Sendable {
    /// The five inner walls.
    public enum Wall: String, CaseIterable, Sendable {
        case back, left, right, top, bottom

        /// Label and tint of the generated picture for a wall without a photo.
        var placeholder: (label: String, tint: Vec3) {
            switch self {
            case .back: return ("BACK", Vec3(0.2, 0.45, 0.9))
            case .left: return ("LEFT", Vec3(0.9, 0.35, 0.3))
            case .right: return ("RIGHT", Vec3(0.3, 0.8, 0.4))
            case .top: return ("CEILING", Vec3(0.8, 0.75, 0.3))
            case .bottom: return ("FLOOR", Vec3(0.6, 0.4, 0.85))
            }
        }
    }

    /// The screen the room is built behind.
    public var screen: ScreenGeometry
    /// How far the room extends behind the screen, metres.
    public var depth: Float
    /// Pictures per wall; walls without one (or a texture) get a generated labelled grid.
    public var pictures: [Wall: RGBAImage]
    /// Ready-made textures per wall, shared by reference (a video wall's texture, which its
    /// owner rewrites in place between frames); they take precedence over `pictures`.
    public var textures: [Wall: Texture]
    /// Whether the floating targets are shown.
    public var showTargets: Bool

    /// A room behind `screen`; `depth` defaults to the screen width.
    public init(screen: ScreenGeometry, depth: Float? = nil, pictures: [Wall: RGBAImage] = [:], textures: [Wall: Texture] = [:],
                showTargets: Bool = true) {
        self.screen = screen; self.depth = depth ?? screen.width
        self.pictures = pictures; self.textures = textures; self.showTargets = showTargets
    }

    /// The target positions (disc centres) as fractions of the room: x, y of the half-extents, z of the depth.
    static let targetLayout: [(x: Float, y: Float, z: Float, r: Float)] = [
        (-0.45, 0.25, 0.25, 0.09), (0.4, -0.2, 0.45, 0.08), (0.05, 0.05, 0.7, 0.07),
        (-0.15, -0.45, 0.15, 0.06), (0.55, 0.45, 0.6, 0.06),
    ]

    /// Builds the room as one mesh: wall materials first (unlit pictures), then the lit targets.
    public func mesh() -> TriangleMesh {
        let w = screen.width / 2, h = screen.height / 2, d = depth
        var room = TriangleMesh(positions: [], indices: [], materials: [])
        func wall(_ which: Wall, origin: Vec3, u: Vec3, v: Vec3) {
            let texture = textures[which] ?? Texture(pictures[which] ?? {
                let p = which.placeholder
                return TextureGenerator.labelledGrid(label: p.label, tint: p.tint)
            }())
            let material = TriangleMesh.Material(name: which.rawValue, texture: texture, lit: false)
            room.append(MeshGenerator.quad(origin: origin, uAxis: u, vAxis: v, divisions: 1, material: material))
        }
        // Each wall's u runs left→right and v bottom→top as seen from inside the room, so pictures stand upright.
        wall(.back, origin: Vec3(-w, -h, -d), u: Vec3(2 * w, 0, 0), v: Vec3(0, 2 * h, 0))
        wall(.left, origin: Vec3(-w, -h, 0), u: Vec3(0, 0, -d), v: Vec3(0, 2 * h, 0))
        wall(.right, origin: Vec3(w, -h, -d), u: Vec3(0, 0, d), v: Vec3(0, 2 * h, 0))
        wall(.top, origin: Vec3(-w, h, -d), u: Vec3(2 * w, 0, 0), v: Vec3(0, 0, d))
        wall(.bottom, origin: Vec3(-w, -h, 0), u: Vec3(2 * w, 0, 0), v: Vec3(0, 0, -d))
        if showTargets { room.append(targets()) }
        return room
    }

    /// Bullseye discs facing the viewer, each on a thin stick back to the back wall.
    func targets() -> TriangleMesh {
        let w = screen.width / 2, h = screen.height / 2, d = depth
        let face = TriangleMesh.Material(name: "target", texture: Texture(TextureGenerator.bullseye()), lit: true)
        let stick = TriangleMesh.Material(name: "stick", baseColor: Vec4(0.85, 0.85, 0.85, 1), lit: true)
        var m = TriangleMesh(positions: [], indices: [], materials: [])
        for t in CubeRoom.targetLayout {
            let c = Vec3(t.x * w, t.y * h, -t.z * d)
            let r = t.r * 0.55 * screen.width / 0.6
            m.append(MeshGenerator.disc(center: c, normal: Vec3(0, 0, 1), radius: r, material: face))
            m.append(MeshGenerator.cylinder(from: Vec3(c.x, c.y, -d), to: c + Vec3(0, 0, -0.001), radius: r * 0.06, material: stick))
        }
        return m
    }
}
