// WebcamSource — the webcam (or a video file, a stream, the latency rig's rendered head) as a head
// source: capture and processing on their own threads, the newest frame always, each frame
// stamped with its exposure time (the frame source's, `CameraFrameSource`).
import Media
import Foundation
import HeadTracking
import RenderCore
import Workers

/// Tracker figures for the HUD.
public struct WebcamStatus: Sendable {
    /// The face back end (`landmarker`, `blazeface` or `haar`).
    public var backend: String
    /// Frames captured and frames processed per second (over the last second or so).
    public var captureFPS: Double = 0, processFPS: Double = 0
    /// Median detection + estimation time (ms) and capture → pose latency (ms), recent frames.
    public var processingMs: Double = 0, captureToPoseMs: Double = 0
    /// Frames captured, processed, dropped as stale (a newer one arrived first).
    public var captured = 0, processed = 0, dropped = 0
    /// Frames processed in which both eyes were placed.
    public var tracked = 0
    /// The latest observation (face box, eyes, distance) for the camera inset.
    public var lastObservation: EyeObservation?
    /// Set when the camera or file failed (then no more frames come).
    public var failure: String?
    /// A network stream's state when it is not delivering: lost, reconnecting (with the attempt).
    public var notice: String?
    /// Times a dropped stream came back.
    public var reconnects = 0
}

/// Publishes the viewer's eye from a camera. Capture thread: reads frames (pacing a file to its
/// frame rate and looping it), each stamped with its exposure time, and leaves only the newest for the
/// processing thread, which detects, tracks and estimates, then publishes a `PoseSample`
/// (confidence from the detector; 0 without a face, which HeadTracking treats as lost).
/// A camera that stops delivering ends capture with `failure` set: the tracker then holds and
/// eases to the neutral eye, and the window shows the failure — it never waits on the camera.
public final class WebcamSource: CameraTrackingSource {
    /// How a frame's time is taken.
    public enum Stamping: String, Sendable, CaseIterable {
        /// The frame source's exposure time (a camera's own time stamp, or the read's return minus
        /// the source's delay): what the tracker should know.
        case exposure
        /// When the read was issued, before it blocked for the frame: SplatFrame before exposure
        /// stamps. Kept for the latency rig, to show what exposure stamps change.
        case readIssued = "read-issued"
    }

    /// Where frames come from.
    public let frames: any CameraFrameSource
    /// How frames are stamped.
    public let stamping: Stamping
    private let pipeline: EyePipeline
    private let clock: ClockFunction
    private let captureThread = BackgroundThread(name: "splatframe.webcam.capture")
    private let processThread = BackgroundThread(name: "splatframe.webcam.process")

    private struct Shared {
        var pending: RGBFrame?          // newest captured frame not yet processed
        var spare = RGBFrame()          // storage handed back to the capture thread
        var latest: PoseSample?
        var status: WebcamStatus
        var processTimes: [Double] = [], latencies: [Double] = []
        var captureStamps: [Double] = [], processStamps: [Double] = []
        var lastFrame: RGBFrame?        // the last processed frame, for the camera inset
        /// A calibration in progress: it ends once `until` has passed with at least
        /// `WebcamCalibration.minimumFrames` frames seen (a slow machine keeps collecting), or at
        /// `giveUp` whatever it has.
        var calibration: (distance: Double, until: Double, giveUp: Double, observations: [EyeObservation])?
        var calibrationResult: Result<CameraCalibrationResult, HeadTrackingError>?
        var newModel: PinholeEyeModel?  // a calibration result for the processing thread to apply
    }
    private let shared: Locked<Shared>
    /// Capture-thread state (only the capture thread touches it, one step at a time under its lock).
    private struct CaptureState {
        var frame = RGBFrame(); var start = 0.0; var fileFrames = 0
        /// The source being read: `frames`, or a stream reopened after a drop (nil while down).
        var current: (any CameraFrameSource)?
        /// Stream reconnection: attempts since the drop, and when to try next.
        var attempts = 0, nextAttempt = 0.0
    }
    private let captureState: Locked<CaptureState>

    /// A source reading `frames` through `pipeline`, on `clock` (MonotonicClock; the frame
    /// source stamps on the same clock).
    public init(frames: any CameraFrameSource, pipeline: EyePipeline, clock: @escaping ClockFunction = MonotonicClock.now,
                stamping: Stamping = .exposure) {
        self.frames = frames; self.pipeline = pipeline; self.clock = clock; self.stamping = stamping
        captureState = Locked(CaptureState(current: frames))
        shared = Locked(Shared(status: WebcamStatus(backend: pipeline.backend.rawValue)))
    }

    /// A source reading `capture` (a camera, file or stream) through `pipeline`.
    public convenience init(capture: VideoCapture, pipeline: EyePipeline, clock: @escaping ClockFunction = MonotonicClock.now) {
        self.init(frames: capture, pipeline: pipeline, clock: clock)
    }

    public var name: String { "\(frames.frameSourceName) (\(pipeline.backend.rawValue))" }

    public func start() throws {
        let start = clock()
        captureState.withLock { $0.start = start }
        captureThread.start(loop: { [self] in captureStep() })
        processThread.start(loop: { [self] in processStep() })
    }

    public func stop() {
        // A stream read may wait its whole timeout before the loop sees the stop.
        captureThread.stop(timeout: frames.longestRead + 2)
        processThread.stop()
    }

    public func latest() -> PoseSample? { shared.withLock { $0.latest } }

    /// The tracker's figures now.
    public func status() -> WebcamStatus { shared.withLock { $0.status } }

    public var statusSummary: String? {
        let s = status()
        if let f = s.failure { return "webcam: \(f)" }
        if let n = s.notice { return "webcam (\(s.backend)): \(n)" }
        return String(format: "webcam (%@): %.0f fps, processing %.1f ms, capture to pose %.1f ms, %d dropped",
                      s.backend, s.processFPS, s.processingMs, s.captureToPoseMs, s.dropped)
    }

    // MARK: capture thread

    private func captureStep() {
        captureState.withLock { captureStep(&$0) }
    }

    private func captureStep(_ st: inout CaptureState) {
        guard let capture = st.current ?? reconnect(&st) else { return }
        let issued = clock()
        if capture.isFile, capture.fps > 0 {
            // Play a file at its own frame rate: frame k is due at start + k / fps.
            let due = st.start + Double(st.fileFrames) / capture.fps
            let wait = due - clock()
            if wait > 0 { captureThread.pause(min(wait, 0.05)); if due - clock() > 0 { return } }
        }
        do {
            var frame = shared.withLock { s -> RGBFrame in
                let f = s.spare; s.spare = RGBFrame(); return f
            }
            if frame.pixels.isEmpty { frame = st.frame }
            if try !capture.read(into: &frame, clock: clock) {
                try capture.rewind()   // a file loops
                guard try capture.read(into: &frame, clock: clock) else { throw WebcamError.capture("\(capture.frameSourceName): no frames") }
            }
            if stamping == .readIssued { frame.timestamp = issued }
            st.fileFrames += 1
            if !capture.isFile || capture.fps <= 0 { st.fileFrames = 0 }
            let now = clock()
            shared.update { s in   // wakes the processing thread
                if let old = s.pending { s.status.dropped += 1; s.spare = old }
                s.pending = frame
                s.status.captured += 1
                Self.push(now, into: &s.captureStamps)
                s.status.captureFPS = Self.rate(s.captureStamps)
            }
            if capture.isFile, capture.fps <= 0 { captureThread.pause(1.0 / 30) }   // a still image: 30 Hz
        } catch {
            if capture.isStream {
                // A network camera drops: reopen it with back-off; the window keeps rendering.
                st.current = nil
                st.attempts = 0
                st.nextAttempt = clock()
                shared.update { $0.status.notice = "stream lost (\(error)); reconnecting" }
                return
            }
            shared.update { $0.status.failure = "\(error)" }
            captureThread.stop(timeout: 0)
        }
    }

    /// Reopens a dropped stream when its back-off has passed (0.5, 1, 2, 4, then every 5 s);
    /// the attempt itself waits at most the stream's timeout. Returns the capture when it is back.
    private func reconnect(_ st: inout CaptureState) -> (any CameraFrameSource)? {
        let wait = st.nextAttempt - clock()
        if wait > 0 { captureThread.pause(min(wait, 0.05)); return nil }
        st.attempts += 1
        do {
            let reopened = try frames.reopened()
            st.current = reopened
            shared.update { $0.status.notice = nil; $0.status.reconnects += 1 }
            return reopened
        } catch {
            st.nextAttempt = clock() + min(5, 0.5 * pow(2, Double(st.attempts - 1)))
            let attempt = st.attempts
            shared.update { $0.status.notice = "stream lost; reconnecting (attempt \(attempt): \(error))" }
            return nil
        }
    }

    // MARK: processing thread

    private func processStep() {
        guard shared.wait(until: { $0.pending != nil }, timeout: 0.1, { _, ready in ready }) else { return }
        if let m = shared.withLock({ s -> PinholeEyeModel? in let m = s.newModel; s.newModel = nil; return m }) { pipeline.model = m }
        guard let frame = shared.withLock({ s -> RGBFrame? in let f = s.pending; s.pending = nil; return f }) else { return }
        let observation: EyeObservation
        do { observation = try pipeline.process(frame) } catch {
            shared.withLock { $0.status.failure = "\(error)"; $0.spare = frame }
            return
        }
        let now = clock()
        let position = observation.eyePoint(model: pipeline.model)
        let sample = position.map {
            PoseSample(timestamp: frame.timestamp, position: $0,
                       rotation: observation.angles ?? observation.eyes.map { Vec3d(0, 0, $0.roll) }, confidence: observation.confidence,
                       publishTime: now, eyeSpan: observation.eyes.map { $0.right - $0.left })
        } ?? PoseSample(timestamp: frame.timestamp, position: Vec3d(0, 0, 0.6), confidence: 0, publishTime: now)
        let model = pipeline.model
        shared.withLock { s in
            s.latest = sample
            if let old = s.lastFrame { s.spare = old }
            s.lastFrame = frame
            if var c = s.calibration {
                c.observations.append(observation)
                if (now >= c.until && c.observations.count >= WebcamCalibration.minimumFrames) || now >= c.giveUp {
                    s.calibration = nil
                    do {
                        let r = try WebcamCalibration.fit(c.observations, distance: c.distance, model: model, fit: .ipd)
                        var m = model
                        m.ipd = r.value / 1000
                        s.newModel = m
                        s.calibrationResult = .success(CameraCalibrationResult(key: r.key, value: r.value, summary: String(
                            format: "IPD %.1f MM FROM %d FRAMES (EYES %.1f PX APART)", r.value, r.framesUsed, r.eyeSpacing)))
                    } catch {
                        s.calibrationResult = .failure(.notAvailable("\(error)"))
                    }
                } else {
                    s.calibration = c
                }
            }
            s.status.processed += 1
            if observation.eyes != nil { s.status.tracked += 1 }
            s.status.lastObservation = observation
            Self.push(observation.processingTime * 1000, into: &s.processTimes)
            Self.push((now - frame.timestamp) * 1000, into: &s.latencies)
            Self.push(now, into: &s.processStamps)
            s.status.processingMs = Self.median(s.processTimes)
            s.status.captureToPoseMs = Self.median(s.latencies)
            s.status.processFPS = Self.rate(s.processStamps)
        }
    }

    // MARK: camera inset and calibration

    public func cameraPreview() -> CameraPreview? {
        shared.withLock { s -> CameraPreview? in
            guard let f = s.lastFrame else { return nil }
            let o = s.status.lastObservation
            let box = o?.face.map { SIMD4($0.x, $0.y, $0.width, $0.height) }
            let eyes = o?.face?.eyes.map { [$0.right, $0.left] } ?? []
            return CameraPreview(width: f.width, height: f.height, rgb: f.pixels, faceBox: box, eyes: eyes,
                                 distance: o?.eyes?.distance ?? o?.boxDistance, label: s.status.backend)
        }
    }

    public func beginCalibration(distance: Double, seconds: Double) {
        let start = clock()
        shared.withLock { $0.calibration = (distance, start + seconds, start + 4 * seconds, []); $0.calibrationResult = nil }
    }

    public func takeCalibrationResult() -> Result<CameraCalibrationResult, HeadTrackingError>? {
        shared.withLock { s in let r = s.calibrationResult; s.calibrationResult = nil; return r }
    }

    // MARK: small statistics over the last 30 values

    private static func push(_ v: Double, into a: inout [Double]) {
        if a.count >= 30 { a.removeFirst() }
        a.append(v)
    }
    private static func median(_ a: [Double]) -> Double { a.isEmpty ? 0 : a.sorted()[a.count / 2] }
    private static func rate(_ stamps: [Double]) -> Double {
        guard stamps.count > 1, let f = stamps.first, let l = stamps.last, l > f else { return 0 }
        return Double(stamps.count - 1) / (l - f)
    }
}
