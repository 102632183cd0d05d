// ScreenshotRequests — `p` asks for the next presented frame as a PNG, written on a background
// thread (`ScreenshotWriter`); the outcome comes back as a message for the frame loop to show.
import Foundation
import RenderCore

/// Screenshots asked for and their outcomes. Frame loop only; the writer posts from its thread.
struct ScreenshotRequests {
    private var requested = false
    /// Outcomes posted by the writer's thread.
    private let outcomes = MessageBox()

    /// Takes the next frame.
    mutating func request() { requested = true }

    /// Saves `framebuffer` if a screenshot was asked for (its pixels copied now, written later).
    mutating func takeIfRequested(_ framebuffer: Framebuffer) {
        guard requested else { return }
        requested = false
        let box = outcomes
        ScreenshotWriter.save(framebuffer.image()) { result in
            switch result {
            case .success(let path): box.post("SCREENSHOT SAVED: \(path)")
            case .failure(let e): box.post("SCREENSHOT FAILED: \(e)")
            }
        }
    }

    /// The latest outcome not yet shown, if any.
    func takeMessage() -> String? { outcomes.take() }
}
