// LatencyTrace — every read of the tracker during a rig run: when it was read, the present lead
// it predicted over, and the sample it was given. The tracker is deterministic in exactly those
// inputs, so a trace replayed through another filter or prediction gives the eyes that filter
// would have used on the same camera frames at the same moments: filters compared (and tuned)
// offline, on one real-time recording, without the run-to-run noise of the machine.
import Foundation
import HeadTracking
import RenderCore

/// The tracker's inputs over one rig run, and which read each presented frame used.
/// Times are seconds since the motion started (the rig's origin), positions metres in screen
/// space after the source's mapping (before the tracker's calibration).
public struct LatencyTrace: Sendable, Equatable {
    /// One `HeadTracker.update(sample:at:)`.
    public struct Read: Sendable, Equatable {
        /// The frame time the pose was asked for (s).
        public var time: Double
        /// The tracker's `presentLead` then (s).
        public var lead: Double
        /// The newest sample the source had (nil: none yet).
        public var sample: PoseSample?
        /// When the frame drawn with this read's eye was presented (s); nil for a read no
        /// presented frame used (a late latch's frame read, a frame abandoned).
        public var present: Double?

        public init(time: Double, lead: Double, sample: PoseSample?, present: Double? = nil) {
            self.time = time; self.lead = lead; self.sample = sample; self.present = present
        }
    }

    /// The path's name (`LatencyMotion.name`) and the camera's rate (fps), for the replay's report.
    public var motion: String
    public var cameraFPS: Double
    public var reads: [Read] = []

    public init(motion: String, cameraFPS: Double) { self.motion = motion; self.cameraFPS = cameraFPS }

    /// The frames the trace's presented reads give when the tracker runs with `settings`: each
    /// presented read's pose through a fresh tracker fed every read in order. With the run's own
    /// settings these are the run's frames, eye for eye.
    public func replay(settings: HeadTrackerSettings) -> [PresentedFrame] {
        let tracker = HeadTracker(settings: settings)
        var frames: [PresentedFrame] = []
        for read in reads {
            tracker.presentLead = read.lead
            let pose = tracker.update(sample: read.sample, at: read.time)
            guard let present = read.present else { continue }
            let p = pose.position
            frames.append(PresentedFrame(frameStart: read.time, present: present, eye: SIMD3(p.x, p.y, p.z),
                                         exposure: pose.sampleTime, published: pose.samplePublishTime))
        }
        return frames
    }
}

/// Reads a `HeadTracker` on behalf of the rig's frames and late latches, writing each read into a
/// `LatencyTrace`. Used from the one thread that reads the tracker.
public final class TracingPoseReader {
    public let tracker: HeadTracker
    public let source: any PoseSource
    /// The rig's origin (monotonic seconds): trace times are relative to it.
    public let origin: Double
    public private(set) var trace: LatencyTrace

    public init(tracker: HeadTracker, source: any PoseSource, origin: Double, motion: String, cameraFPS: Double) {
        self.tracker = tracker; self.source = source; self.origin = origin
        trace = LatencyTrace(motion: motion, cameraFPS: cameraFPS)
        trace.reads.reserveCapacity(8192)
    }

    /// The tracker's pose for frame time `t` (monotonic seconds) from the source's newest sample.
    public func pose(at t: Double) -> HeadPose {
        let sample = source.latest()
        var relative = sample
        if let s = sample { relative!.timestamp = s.timestamp - origin; relative!.publishTime = s.publishTime - origin }
        trace.reads.append(LatencyTrace.Read(time: t - origin, lead: tracker.presentLead, sample: relative))
        return tracker.update(sample: sample, at: t)
    }

    /// Marks the read at `readTime` (the `HeadPose.time` a presented frame used, monotonic
    /// seconds; the newest such read) as presented at `present` (monotonic seconds).
    public func presented(at present: Double, readTime: Double) {
        let time = readTime - origin
        guard let i = trace.reads.lastIndex(where: { $0.time == time }) else { return }
        trace.reads[i].present = present - origin
    }
}
