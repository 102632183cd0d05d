// BenchmarkSplatScene — a splat cloud as a `Scene`, reporting splat stage times.
import Foundation
import RenderCore
import SplatRender

/// Draws a splat cloud with `SplatRenderer` and reports its stages in `FrameStats.stages`
/// (preprocess, sort, bin, blend). The bench's own stand-in until `SceneLoader` opens splat
/// files and `generate:N` itself; once it does, `BenchmarkSceneFactory` uses the loader's scene.
public final class BenchmarkSplatScene: Scene {
    public let name: String
    /// The splats, prepared once.
    public let splats: PreparedSplats
    /// Model → world placement applied through the view matrix (identity in own coordinates).
    public let placement: Matrix4
    private var renderer: SplatRenderer?
    /// Reused so that reporting stage times allocates nothing in steady state.
    private var stageTimes: [(name: String, ms: Double)] = [("preprocess", 0), ("sort", 0), ("bin", 0), ("blend", 0)]

    /// A scene of `cloud` placed by `placement`.
    public init(name: String, cloud: SplatCloud, placement: Matrix4 = .identity) {
        self.name = name
        self.splats = SplatRenderer.prepare(cloud)
        self.placement = placement
    }

    public var primitiveCount: Int { splats.count }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        let r: SplatRenderer
        if let existing = renderer, existing.threads == context.pool.threadCount { r = existing } else {
            r = SplatRenderer(threads: context.pool.threadCount); renderer = r
        }
        var cam = camera
        cam.view = camera.view * placement
        let t0 = MonotonicClock.now()
        let s = r.render(splats, camera: cam, into: target)
        var stats = FrameStats()
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        stageTimes[0].ms = s.preprocess; stageTimes[1].ms = s.sort; stageTimes[2].ms = s.bin; stageTimes[3].ms = s.blend
        stats.stages = stageTimes
        return stats
    }
}
