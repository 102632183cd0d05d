// HeadSourceFactory — builds the `PoseSource` a `HeadSourceSpec` names.
import RenderCore

/// Builds the camera-based sources (`webcam`, `video:`): HeadTracking knows the protocol, the
/// WebcamTracking module above it supplies the maker.
public typealias CameraSourceMaker = (HeadSourceSpec, EffectiveTrackingSettings) throws -> any PoseSource

/// Builds sources from specs and resolved settings.
public enum HeadSourceFactory {
    /// Loads a log for replay: reads it (strict or lenient), applies `axes` then `recenter`
    /// (median → nominal eye) when asked. Our own logs are already in screen space.
    public static func loadReplayLog(path: String, options: HeadTrackingOptions,
                                     opentrackMapping: OpentrackMapping = .logDefault) throws -> PoseLog {
        var log = try PoseLogReader(lenient: options.lenient, opentrackMapping: opentrackMapping).read(path: path)
        if let a = options.axes { log = log.remapped(a) }
        if options.recenter { log = log.recentred() }
        return log
    }

    /// A source for `spec` (not started). `mouse` returns a `MouseSource` the window must
    /// feed; `webcam` and `video:` go to `camera`, and without one throw `cameraSourceUnavailable`.
    public static func make(_ spec: HeadSourceSpec, settings: EffectiveTrackingSettings,
                            options: HeadTrackingOptions = HeadTrackingOptions(),
                            camera: CameraSourceMaker? = nil,
                            clock: @escaping ClockFunction = MonotonicClock.now) throws -> any PoseSource {
        switch spec {
        case .mouse:
            let s = settings.geometry.screen
            return MouseSource(screenSize: SIMD2(Double(s.width), Double(s.height)),
                               distance: settings.geometry.neutralEye.z, clock: clock)
        case .fixed(let eye):
            return FixedSource(eye: eye, clock: clock)
        case .replay(let path):
            let log = try loadReplayLog(path: path, options: options)
            return ReplaySource(log: log, speed: options.speed, loop: options.loop, clock: clock)
        case let .udp(host, port):
            return UDPSource(host: host, port: port, mapping: settings.opentrackMapping, clock: clock)
        case .webcam, .video:
            guard let camera else {
                throw HeadTrackingError.cameraSourceUnavailable(source: spec)
            }
            return try camera(spec, settings)
        }
    }
}
