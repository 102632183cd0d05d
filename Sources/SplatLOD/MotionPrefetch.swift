// SplatLOD — MotionPrefetch: the chunks a moving eye will want soon, requested before it gets
// there. The eye's motion over the last frames is carried `lookaheadFrames` ahead, and a second
// selector chooses the levels for that predicted camera (the box rule under the same budget);
// what it wants beyond the frame's own requests is asked for last, at the lowest priority, so a
// moving head rarely arrives where a chunk is still loading.
import RenderCore
import SceneIO

/// Predicts where the eye is going and which chunks it will want there (window only: frames
/// that wait for nothing).
final class MotionPrefetch {
    /// How far ahead (frames) the eye's motion is carried: about 0.2–0.4 s at 30–60 fps, the
    /// time a chunk takes to decode and a little more.
    static let lookaheadFrames: Float = 12
    /// Frames between two predictions while the eye moves (a choice costs about what the
    /// frame's own does).
    static let interval = 4
    /// Below this motion per frame (metres) the eye counts as still and nothing is prefetched.
    static let stillMotion: Float = 2e-4

    private let selector: LODSelector
    private var previousEye: Vec3?
    private var framesSince = 0
    /// Chunks the last prediction asked for beyond the frame's own wishes.
    private(set) var predicted: [Int] = []
    /// Predictions made so far (for tests and status).
    private(set) var predictions = 0

    init(sog: StreamedSOG, pixelThreshold: Float) {
        selector = LODSelector(sog)
        selector.pixelThreshold = pixelThreshold
    }

    /// Updates the prediction for `camera` (every `interval` frames while the eye moves) and
    /// returns the chunks its levels need, `chunk(node, level)` giving each (−1: none).
    func chunks(camera: Camera, budget: Int?, forced: Int?, pixelThreshold: Float, chunk: (Int, Int) -> Int) -> [Int] {
        let eye = camera.position
        defer { previousEye = eye }
        guard let previous = previousEye else { return predicted }
        let step = eye - previous
        if step.length < Self.stillMotion { predicted.removeAll(keepingCapacity: true); return predicted }
        framesSince += 1
        guard framesSince >= Self.interval || predictions == 0 else { return predicted }
        framesSince = 0
        // The camera moved ahead: the same view and projection, the eye `lookaheadFrames` steps on.
        var ahead = camera
        ahead.view = camera.view * Matrix4.translation(-step * Self.lookaheadFrames)
        selector.pixelThreshold = pixelThreshold
        selector.choose(camera: ahead, budget: budget, forced: forced)
        predicted.removeAll(keepingCapacity: true)
        for n in 0..<selector.nodeCount where selector.wanted[n] >= 0 {
            let c = chunk(n, selector.wanted[n])
            if c >= 0 { predicted.append(c) }
        }
        predictions += 1
        return predicted
    }
}
