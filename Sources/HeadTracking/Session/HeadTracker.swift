// HeadTracker — source → calibration → movement scale → filter → lost-tracking easing → HeadPose.
import RenderCore

/// Turns samples into one `HeadPose` per frame. Owned by the frame loop (not thread-safe;
/// the sources are). Deterministic: the output depends only on the samples and the frame
/// times passed in, never on the wall clock.
///
/// Per frame:
/// 1. A sample is *fresh* when its confidence is > 0, its position is finite and
///    `frameTime − sample.timestamp ≤ staleAfter` (250 ms).
/// 2. A fresh sample with a new timestamp is calibrated (`calibrationAxes`, `calibrationOffset`),
///    scaled about the neutral eye (`neutralEye + movementScale · axisStrength ⊙ (p − neutralEye)`),
///    filtered at its own timestamp and optionally predicted.
/// 3. States: `tracking` follows the filtered pose. Without a fresh sample the tracker goes
///    to `holding` (last output held for `holdDuration`), then `easingOut` (smoothstep to the
///    neutral eye over `easeOutDuration`), then `lost` (neutral eye). When fresh samples
///    return in any of those, the filter restarts and `easingIn` blends from the current
///    output to the live pose over `easeInDuration`. The output never jumps.
public final class HeadTracker {
    /// The source read by `pose(at:)` (nil: feed samples through `update(sample:at:)`).
    public let source: (any PoseSource)?
    /// The pipeline settings.
    public let settings: HeadTrackerSettings
    /// The current state (after the last update).
    public private(set) var state: TrackingState = .lost
    /// The last pose returned.
    public private(set) var lastPose: HeadPose
    /// Seconds from a frame's time to when it reaches the screen (render + present), set by the
    /// frame loop from its recent median; prediction aims at frame time + this.
    public var presentLead: Double = 0

    private var filter: PositionFilter
    private var predictor: DoubleExponentialPredictor?
    private var lastSampleTime: Double?
    private var live: Vec3d
    private var raw: Vec3d?
    private var rotation: Vec3d?
    private var eyeSpan: Vec3d?
    private var sampleTime: Double?, samplePublishTime: Double?
    private var output: Vec3d
    private var held: Vec3d
    private var phaseStart = 0.0      // when holding / easing began (frame time)
    private var easeFrom: Vec3d

    /// Creates a tracker over `source` (optional) with `settings`.
    public init(source: (any PoseSource)? = nil, settings: HeadTrackerSettings = HeadTrackerSettings()) {
        self.source = source
        self.settings = settings
        filter = PositionFilter(settings.filter)
        // A filter with its own motion model (Kalman) predicts itself; others get LaViola's predictor.
        predictor = filter.predicts ? nil : settings.predictionHorizon.map { DoubleExponentialPredictor(horizon: $0) }
        let n = settings.neutralEye
        live = n; output = n; held = n; easeFrom = n
        lastPose = HeadPose(time: 0, position: n, state: .lost)
    }

    /// Reads the source's newest sample (never blocks) and returns the pose for frame time
    /// `t` (seconds, same clock as the source — `MonotonicClock.now()` for live sources).
    public func pose(at t: Double) -> HeadPose {
        update(sample: source?.latest(), at: t)
    }

    /// The calibrated, movement-scaled position of a source position (metres, screen space).
    public func calibrated(_ p: Vec3d) -> Vec3d {
        let s = settings
        let c = s.calibrationAxes.apply(p) + s.calibrationOffset
        return s.neutralEye + s.movementScale * s.axisStrength * (c - s.neutralEye)
    }

    /// Advances to frame time `t` (seconds) with the newest sample (or nil) and returns the pose.
    @discardableResult
    public func update(sample: PoseSample?, at t: Double) -> HeadPose {
        let s = settings
        var fresh: PoseSample? = nil
        if let smp = sample, smp.confidence > 0, smp.position.x.isFinite, smp.position.y.isFinite,
           smp.position.z.isFinite, t - smp.timestamp <= s.staleAfter {
            fresh = smp
        }

        if let smp = fresh {
            if state == .holding || state == .easingOut || state == .lost {
                // Re-acquired: restart the filter and blend in from where we are.
                filter.reset(); predictor?.reset(); lastSampleTime = nil
                state = .easingIn; phaseStart = t; easeFrom = output
            }
            if lastSampleTime.map({ smp.timestamp > $0 }) ?? true {
                let c = calibrated(smp.position)
                raw = c
                let f = filter.filter(c, at: smp.timestamp)
                if var p = predictor { _ = p.predict(f, at: smp.timestamp); predictor = p }
                live = f
                rotation = smp.rotation
                eyeSpan = smp.eyeSpan.map { $0 * s.movementScale }
                lastSampleTime = smp.timestamp
                sampleTime = smp.timestamp; samplePublishTime = smp.publishTime
            }
            // Aim at when this frame will be seen, not a fixed offset after the sample.
            if let horizon = s.predictionHorizon, let last = lastSampleTime {
                if let p = filter.predicted(at: t + presentLead + horizon) {
                    live = p
                } else if let p = predictor {
                    live = p.extrapolate(ahead: (t + presentLead - last) + horizon)
                }
            }
            if state == .easingIn {
                let u = s.easeInDuration > 0 ? (t - phaseStart) / s.easeInDuration : 1
                if u >= 1 { state = .tracking; output = live } else { output = mix(easeFrom, live, smoothstep(u)) }
            } else {
                state = .tracking; output = live
            }
        } else {
            if state == .tracking || state == .easingIn { state = .holding; phaseStart = t; held = output }
            if state == .holding, t - phaseStart >= s.holdDuration {
                state = .easingOut; phaseStart += s.holdDuration
            }
            if state == .easingOut {
                let u = s.easeOutDuration > 0 ? (t - phaseStart) / s.easeOutDuration : 1
                if u >= 1 { state = .lost; output = s.neutralEye } else { output = mix(held, s.neutralEye, smoothstep(u)) }
            }
            if state == .lost { output = s.neutralEye }
            if state == .holding { output = held }
        }

        var pose = HeadPose(time: t, position: output,
                            rotation: state == .lost ? nil : rotation,
                            state: state, rawPosition: fresh == nil ? nil : raw,
                            latency: sample.map { t - $0.publishTime })
        pose.eyeSpan = state == .lost ? nil : eyeSpan
        pose.monoEye = settings.monoEye
        if fresh != nil { pose.sampleTime = sampleTime; pose.samplePublishTime = samplePublishTime }
        lastPose = pose
        return pose
    }
}

/// Hermite smoothstep 3u² − 2u³ of u clamped to 0…1.
@inline(__always) public func smoothstep(_ u: Double) -> Double {
    let x = min(max(u, 0), 1)
    return x * x * (3 - 2 * x)
}

@inline(__always) func mix(_ a: Vec3d, _ b: Vec3d, _ u: Double) -> Vec3d { a + (b - a) * u }
