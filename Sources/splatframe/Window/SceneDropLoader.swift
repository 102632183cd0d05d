// SceneDropLoader — a file or SOG folder dropped on the window, loaded on a background thread
// while the window keeps rendering the current scene.
import Foundation
import RenderCore
import Viewer
import Workers

/// One background load. The frame loop polls `state()` every frame: progress while loading,
/// then the scene or the error (shown in the window; the window never exits for it).
final class SceneDropLoader: Sendable {
    enum State {
        case loading(fraction: Double)
        /// The scene; the source it was opened from (nil: the same capture with levels of detail);
        /// background work it still wants (levels of detail for a large capture); notes to show.
        case loaded(Scene, SceneSource?, LevelOfDetailJob?, notes: [String])
        case failed(String)
    }

    /// What is loading, for the progress bar.
    let path: String
    /// Levels of detail for the scene on show (kept: the placement carries over), not a new scene.
    let isLevelOfDetail: Bool
    private let current = Locked<State>(.loading(fraction: 0))
    /// A line on where a level-of-detail build is (an out-of-core build's region, time left).
    private let currentDetail = Locked<String?>(nil)
    /// The loading thread: one step, the whole load; a level-of-detail build stops when asked.
    private let thread = BackgroundThread(name: "splatframe.load")

    /// Starts loading `path` for a screen of `screen` with `options` (placement, room…).
    init(path: String, screen: ScreenGeometry, options: SceneLoader.ModelOptions) {
        self.path = path
        isLevelOfDetail = false
        thread.start { [self] in
            do {
                let source = try SceneSource.resolve(path)
                let loader = try SceneLoader.load(source: source, options: options, progress: { done, total in
                    guard total > 0 else { return }
                    self.set(.loading(fraction: min(1, Double(done) / Double(total))))
                }, cancelled: { [thread] in thread.isStopping })
                let scene = try loader.scene(screen: screen)
                set(.loaded(scene, source, loader.levelOfDetailJob(screen: screen), notes: loader.warnings))
            } catch {
                set(.failed(ErrorWording.line(error)))
            }
            return false
        }
    }

    /// Starts `job`: the shown capture's levels of detail, built while it is drawn whole.
    init(levelsOf job: LevelOfDetailJob) {
        path = job.name
        isLevelOfDetail = true
        thread.start { [self] in
            do {
                let made = try job.run(cancelled: { [thread] in thread.isStopping }, progress: { f in self.set(.loading(fraction: f)) },
                                       detail: { line in self.currentDetail.set(line) })
                set(.loaded(made.scene, nil, nil, notes: made.notes))
            } catch {
                set(.failed("\(error)"))
            }
            return false
        }
    }

    /// Stops a level-of-detail build and waits for it (it stops within a leaf or a chunk). A file
    /// load is asked to stop (it does between its steps: a download, each file, a build) but not
    /// waited for (the frame loop must not freeze); its thread ends by itself when the load does.
    deinit { thread.stop(timeout: isLevelOfDetail ? 30 : 0) }

    private func set(_ s: sending State) { current.set(s) }

    /// The load's state now.
    func state() -> State { current.withLock { $0 } }

    /// Where a level-of-detail build is, in a few words (nil: nothing to add to the fraction).
    func detail() -> String? { currentDetail.withLock { $0 } }

    /// Draws a progress bar across the bottom of the frame.
    static func drawProgress(_ fraction: Double, label: String, name: String, detail: String? = nil, into fb: Framebuffer, text: WindowText) {
        let h = max(4, fb.height / 90), y0 = fb.height - h - 4
        let filled = Int(Double(fb.width - 16) * min(1, max(0, fraction)))
        for y in y0..<(y0 + h) {
            for x in 8..<(fb.width - 8) { fb.color[y * fb.width + x] = x - 8 < filled ? 0xFF60_C0F0 : 0xFF30_4050 }
        }
        let line = String(format: "%@ %@  %.0f%%", label, name, fraction * 100) + (detail.map { "  (\($0))" } ?? "")
        text.draw(line, x: 8, y: y0 - text.lineHeight - 2, into: fb)
    }
}
