// HeadTrackingOptions — what the command line says about head tracking (no ArgumentParser here).

/// Head-tracking flags as plain values, filled by the executable's `@OptionGroup`
/// (`HeadOptions`) and resolved against the config file by `SettingsResolver`.
/// nil means "not given on the command line".
public struct HeadTrackingOptions: Sendable, Equatable {
    /// `--head SOURCE`.
    public var head: HeadSourceSpec?
    /// The webcam's face back end by name (`--detector`; WebcamTracking parses it), nil: the best that works.
    public var detector: String?
    /// `--eye X,Y,Z` (metres): a fixed eye; wins over `--head`.
    public var eye: Vec3d?
    /// `--filter SPEC`.
    public var filter: FilterSpec?
    /// `--predict MS|off`: milliseconds predicted past the present time (−1: no prediction).
    public var predictMs: Double?
    /// `--movement-scale S`.
    public var movementScale: Double?
    /// `--axis-strength X,Y,Z`.
    public var axisStrength: Vec3d?
    /// `--record LOG`: write a `PoseRecorder` log of every frame.
    public var recordPath: String?
    /// `--send-pose`: send the filtered pose to other apps as opentrack UDP packets.
    public var sendPose: PoseTarget?
    /// `--loop` (replay).
    public var loop: Bool = false
    /// `--speed F` (replay).
    public var speed: Double = 1
    /// `--recenter` (replay of foreign logs): median position → nominal eye.
    public var recenter: Bool = false
    /// `--axes x,-z,y` (replay of foreign logs).
    public var axes: AxisMapping?
    /// `--lenient` (replay): skip bad log lines instead of failing.
    public var lenient: Bool = false

    /// No flags given.
    public init() {}

    /// The source spec these flags ask for, before config/defaults (`--eye` wins over `--head`).
    public var requestedSource: HeadSourceSpec? {
        if let e = eye { return .fixed(e) }
        return head
    }
}
