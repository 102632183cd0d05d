// OpentrackMapping — opentrack's axes and units → screen space.

/// Maps an opentrack pose (x, y, z in centimetres; yaw, pitch, roll in degrees) into screen
/// space: `eye[i] = offset[i] + scale[i] · axes.sign[i] · ot[axes.source[i]]`.
///
/// Defaults, documented: opentrack's x points right, y up, and z toward the camera, in cm,
/// and its output is zero at the user's centred pose. So `axes = x,y,-z` (moving toward the
/// camera/screen lowers our z), `scale = 0.01` (cm → m) and `offset = (0, 0, 0.6)`: the
/// centred pose is the nominal eye 60 cm in front of the screen centre. For a tracker that
/// reports positions relative to the camera (centring off), set `offset` to the camera's
/// calibrated position relative to the screen centre (e.g. (0, 0.19, 0) for a webcam on top
/// of a 34 cm-tall screen) and check the signs.
public struct OpentrackMapping: Equatable, Sendable, Codable {
    /// Signed axis permutation from opentrack axes to ours.
    public var axes: AxisMapping
    /// Metres per opentrack unit, per output axis (0.01: centimetres).
    public var scale: Vec3d
    /// Screen-space position (metres) of opentrack's origin.
    public var offset: Vec3d

    /// Creates a mapping.
    public init(axes: AxisMapping = OpentrackMapping.defaultAxes, scale: Vec3d = Vec3d(repeating: 0.01),
                offset: Vec3d = Vec3d(0, 0, 0.6)) {
        self.axes = axes; self.scale = scale; self.offset = offset
    }

    /// `x,y,-z`.
    public static let defaultAxes = AxisMapping(source: SIMD3(0, 1, 2), sign: Vec3d(1, 1, -1))
    /// The live (UDP) default: centred pose at (0, 0, 0.6) m.
    public static let `default` = OpentrackMapping()
    /// For importing logs: same axes and units, no offset (use `--recenter` to place the track).
    public static let logDefault = OpentrackMapping(offset: .zero)

    /// Screen-space position in metres for an opentrack translation (cm).
    public func position(_ ot: Vec3d) -> Vec3d { offset + scale * axes.apply(ot) }

    /// Radians for opentrack's yaw, pitch, roll in degrees.
    public func rotation(_ yawPitchRollDegrees: Vec3d) -> Vec3d { yawPitchRollDegrees * (Double.pi / 180) }

    /// The inverse of `position`: the opentrack translation (cm) that maps to screen position `p`.
    public func opentrack(position p: Vec3d) -> Vec3d {
        let mapped = (p - offset) / scale   // = axes.apply(ot)
        var ot = Vec3d.zero
        for i in 0..<3 { ot[axes.source[i]] = axes.sign[i] * mapped[i] }
        return ot
    }

    /// The inverse of `rotation`: degrees.
    public func opentrackDegrees(_ rotation: Vec3d) -> Vec3d { rotation * (180 / Double.pi) }
}
