// HeadTrackingSession — source + tracker + optional recorder, built from flags and config.
import RenderCore
import Settings

/// Everything a window, bench or export run needs for head tracking, in one object.
///
/// ```swift
/// let session = try HeadTrackingSession(options: head.resolved(), config: config, configPath: path,
///                                       geometry: setup.trackingGeometry)
/// try session.start()
/// defer { session.stop() }
/// // window:  session.mouse?.update(normalizedX:normalizedY:), session.mouse?.scroll(delta:)
/// let pose = session.pose(at: MonotonicClock.now())          // live, once per frame
/// let pose = session.pose(atFrameTime: Double(i) / fps)     // bench/export: deterministic
/// let camera = setup.camera(eye: pose.eye, width: w, height: h)   // Viewer's ViewingSetup
/// ```
public final class HeadTrackingSession {
    /// The effective settings and where each came from.
    public let settings: EffectiveTrackingSettings
    /// The parsed flags.
    public let options: HeadTrackingOptions
    /// The source (not started until `start()`).
    public let source: any PoseSource
    /// The tracker.
    public let tracker: HeadTracker
    /// The recorder when `--record` was given.
    public let recorder: PoseRecorder?
    /// The pose sender when `--send-pose` was given (in the frame `settings.opentrackMapping` reads).
    public let sender: PoseSender?
    /// The first recording error, if any (recording then stops; the frame loop goes on).
    public private(set) var recordError: HeadTrackingError?

    /// Builds the session from flags and an already read config file (`config` nil: defaults;
    /// the caller decides whether the user's file is read at all), resolves the settings,
    /// creates the source and, with `--record`, the recorder. Throws `HeadTrackingError`
    /// (bad config value, unreadable log, webcam not available, …).
    /// `camera` builds `webcam` / `video:` sources (WebcamTracking supplies it).
    public init(options: HeadTrackingOptions, config: ConfigFile? = nil, configPath: String? = nil,
                geometry: TrackingGeometry = TrackingGeometry(), camera: CameraSourceMaker? = nil,
                clock: @escaping ClockFunction = MonotonicClock.now) throws {
        let s = try SettingsResolver.resolve(config: config, configPath: configPath, flags: options, geometry: geometry)
        self.settings = s
        self.options = options
        self.source = try HeadSourceFactory.make(s.head.value, settings: s, options: options, camera: camera, clock: clock)
        self.tracker = HeadTracker(source: source, settings: s.trackerSettings)
        if let target = options.sendPose, target.loopsBack(into: s.head.value) {
            throw HeadTrackingError.poseTargetLoopsBack(target: target, source: s.head.value)
        }
        self.sender = try options.sendPose.map { try PoseSender(host: $0.host, port: $0.port, mapping: s.opentrackMapping) }
        self.recorder = try options.recordPath.map {
            try PoseRecorder(path: $0, comment: ["splatframe head \(s.head.value), filter \(s.filter.value)"],
                             eyes: s.head.value.isCamera)
        }
    }

    /// The length of the replayed log in seconds (nil when the source is not a replay).
    public var replayDuration: Double? { (source as? ReplaySource)?.duration }

    /// The mouse source, when that is the source (the window feeds it cursor and wheel events).
    public var mouse: MouseSource? { source as? MouseSource }

    /// Starts the source's thread / socket.
    public func start() throws { try source.start() }

    /// Stops the source and closes the recording.
    public func stop() {
        source.stop()
        do { try recorder?.close() } catch { noteRecordError(error) }
    }

    /// Whether `--record` rows are written when their frame is presented (`presented(_:at:)`, the
    /// window) rather than when the pose is read; set before the first frame. The rows then carry
    /// `present_unix` and `exposure_unix`.
    public var recordsAtPresent = false {
        didSet { recorder?.presentTimes = recordsAtPresent }
    }

    /// The frame drawn for `pose` was presented at `t` (seconds on `MonotonicClock`): its row is
    /// written now (`recordsAtPresent`).
    public func presented(_ pose: HeadPose, at t: Double) {
        guard recordsAtPresent, let recorder, recordError == nil else { return }
        do { try recorder.record(pose, presented: t) } catch { noteRecordError(error) }
    }

    /// Live: the pose for frame time `t` (seconds on `MonotonicClock`) from the source's newest sample.
    public func pose(at t: Double) -> HeadPose {
        record(tracker.pose(at: t))
    }

    /// Deterministic (bench, export): a replay source is sampled at the frame time `t`
    /// (seconds since the run started) instead of the wall clock; other sources behave as `pose(at:)`.
    public func pose(atFrameTime t: Double) -> HeadPose {
        if let replay = source as? ReplaySource {
            return record(tracker.update(sample: replay.sample(at: t), at: t))
        }
        return pose(at: t)
    }

    private func record(_ pose: HeadPose) -> HeadPose {
        // A fresh sample this frame (the tracker's rate, not the frame rate) goes to other apps.
        if let sender, pose.rawPosition != nil, pose.state != .lost { sender.send(pose) }
        if let recorder, recordError == nil, !recordsAtPresent {
            do { try recorder.record(pose) } catch { noteRecordError(error) }
        }
        return pose
    }

    private func noteRecordError(_ error: Error) {
        if recordError == nil {
            recordError = (error as? HeadTrackingError) ?? .writeFailed(file: recorder?.path ?? "?", reason: "\(error)")
        }
    }
}
