import Foundation
import JSONInput
import RenderCore

/// Which model axis points up on screen. Meshes are usually +y up; 3DGS captures are
/// right-down-forward, so `-y` shows them upright and facing the viewer.
public enum UpAxis: String, CaseIterable, Sendable, Codable {
    case posY = "y", negY = "-y", posZ = "z", negZ = "-z", posX = "x", negX = "-x"

    /// Parses `y`, `+y`, `-y`, `z`, … (case-insensitive).
    public init?(parsing s: String) {
        var t = s.lowercased().trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("+") { t.removeFirst() }
        self.init(rawValue: t)
    }

    /// The rotation taking this model axis to screen +y (and keeping a right-handed frame).
    public var rotation: Quaternion {
        switch self {
        case .posY: return .identity
        case .negY: return Quaternion(angle: .pi, axis: Vec3(1, 0, 0))        // RDF → x right, y up, z toward viewer
        case .posZ: return Quaternion(angle: -.pi / 2, axis: Vec3(1, 0, 0))
        case .negZ: return Quaternion(angle: .pi / 2, axis: Vec3(1, 0, 0))
        case .posX: return Quaternion(angle: .pi / 2, axis: Vec3(0, 0, 1))
        case .negX: return Quaternion(angle: -.pi / 2, axis: Vec3(0, 0, 1))
        }
    }

    /// The next axis in a fixed cycle (the viewer's `u` key).
    public var next: UpAxis {
        let all = UpAxis.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// How a model sits in the box behind the screen: which axis is up, and the user's orbit,
/// zoom and pan on top of the automatic fit. Saved next to the model as
/// `FILE.splatframe.json` so a chosen orientation sticks.
public struct Placement: Equatable, Sendable, Codable {
    /// Model axis shown as up.
    public var up: UpAxis
    /// Turn about the screen's vertical axis through the box centre, radians.
    public var yaw: Float = 0
    /// Tilt about the screen's horizontal axis through the box centre, radians.
    public var pitch: Float = 0
    /// Extra scale on top of the fit (1 = fitted).
    public var zoom: Float = 1
    /// Offset of the model's centre from the box centre, metres (screen space).
    public var pan: [Float] = [0, 0, 0]

    public init(up: UpAxis) { self.up = up }

    /// The sidecar path for a model file.
    public static func sidecarPath(for file: String) -> String { file + ".splatframe.json" }

    /// Reads a sidecar, or nil when there is none; a malformed one is an error naming the file.
    public static func load(sidecarFor file: String) throws -> Placement? {
        let path = sidecarPath(for: file)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            let root = try JSONNode.parse(data)
            let upNode = try root.required("up", "an up axis")
            guard let up = UpAxis(parsing: try upNode.string()) else { throw upNode.fail("an up axis (y, -y, z, -z, x or -x)") }
            var p = Placement(up: up)
            p.yaw = Float(try root.optional("yaw")?.number(in: -1000...1000, "an angle in radians") ?? 0)
            p.pitch = Float(try root.optional("pitch")?.number(in: -1000...1000, "an angle in radians") ?? 0)
            p.zoom = Float(try root.optional("zoom")?.number(in: 1e-4...1e4, "a zoom factor in 0.0001…10000") ?? 1)
            p.pan = try root.optional("pan")?.numbers(3).map { Float($0) } ?? [0, 0, 0]
            return p
        } catch let e as JSONPathError {
            throw ViewerError.badJSON(path: path, reason: "not a placement file: \(e)")
        }
    }

    /// Writes the sidecar next to `file`.
    public func save(sidecarFor file: String) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        let path = Placement.sidecarPath(for: file)
        do { try enc.encode(self).write(to: URL(fileURLWithPath: path)) } catch {
            throw ViewerError.badJSON(path: path, reason: "cannot write placement: \(error.localizedDescription)")
        }
    }
}

/// The automatic fit: centre and scale a model's robust bounds into the box behind the screen.
public struct SceneFit: Sendable {
    /// Robust bounds of the model (model space).
    public var bounds: Bounds
    /// The screen and the box depth behind it (metres).
    public var screen: ScreenGeometry
    public var depth: Float
    /// Fraction of the box the fitted model fills.
    public var fill: Float = 0.85

    public init(bounds: Bounds, screen: ScreenGeometry, depth: Float) {
        self.bounds = bounds; self.screen = screen; self.depth = depth
    }

    /// Centre of the box behind the screen.
    public var boxCenter: Vec3 { Vec3(0, 0, -depth / 2) }

    /// Model → screen-space matrix for a placement.
    public func modelMatrix(_ p: Placement) -> Matrix4 {
        let up = p.up.rotation
        // Bounds after the up rotation (axis permutations keep boxes boxes).
        var rotated = Bounds.empty
        for i in 0..<8 {
            let c = Vec3(i & 1 == 0 ? bounds.min.x : bounds.max.x, i & 2 == 0 ? bounds.min.y : bounds.max.y,
                         i & 4 == 0 ? bounds.min.z : bounds.max.z)
            rotated = rotated.including(up.rotate(c))
        }
        let size = rotated.isEmpty ? Vec3(1, 1, 1) : rotated.size
        let fits = [screen.width / max(size.x, 1e-9), screen.height / max(size.y, 1e-9), depth / max(size.z, 1e-9)]
        let scale = fill * (fits.min() ?? 1) * p.zoom
        let center = bounds.isEmpty ? Vec3.zero : bounds.center
        let orbit = Quaternion(angle: p.pitch, axis: Vec3(1, 0, 0)) * Quaternion(angle: p.yaw, axis: Vec3(0, 1, 0))
        let pan = p.pan.count == 3 ? Vec3(p.pan[0], p.pan[1], p.pan[2]) : .zero
        return Matrix4.translation(boxCenter + pan) * orbit.matrix * Matrix4.scale(Vec3(repeating: scale))
            * up.matrix * Matrix4.translation(-center)
    }
}
