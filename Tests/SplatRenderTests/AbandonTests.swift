// Abandoning a frame (`SplatRenderer.abandonCheck`): a check that stays false changes nothing
// (the same bytes), a check that turns true stops the frame early and says so, and the next
// frame without a check is drawn whole again.
import Foundation
import Procedural
import RenderCore
@testable import SplatRender
import Synchronization
import Testing

@Suite("abandoning a frame")
struct AbandonTests {
    static let camera = SplatSceneGenerator.roomCamera(width: 320, height: 180)

    @Test func aCheckThatStaysFalseChangesNothingAndOneThatTurnsTrueStopsTheFrame() {
        let splats = SplatRenderer.prepare(SplatSceneGenerator.room(count: 60_000, seed: 4))
        let r = SplatRenderer(threads: 2)
        let plain = Framebuffer(width: 320, height: 180), checked = Framebuffer(width: 320, height: 180)
        // Twice: the second frame at one rotation makes the kept depth order, and every frame
        // compared below bins from it (it orders equal depths as the per-tile sort may not).
        r.render(splats, camera: Self.camera, into: plain)
        r.render(splats, camera: Self.camera, into: plain)
        // Asked many times and always false: the same frame to the byte.
        let asked = Atomic<Int>(0)
        r.abandonCheck = { asked.wrappingAdd(1, ordering: .relaxed); return false }
        let t = r.render(splats, camera: Self.camera, into: checked)
        #expect(!t.abandoned)
        #expect(asked.load(ordering: .relaxed) > 10)
        #expect(memcmp(plain.color, checked.color, plain.pixelCount * 4) == 0)
        // True after a few questions (the head moved mid-frame): stopped, and said so.
        let questions = Atomic<Int>(0)
        r.abandonCheck = { questions.wrappingAdd(1, ordering: .relaxed).newValue > 3 }
        let stopped = r.render(splats, camera: Self.camera, into: checked)
        #expect(stopped.abandoned)
        #expect(questions.load(ordering: .relaxed) < asked.load(ordering: .relaxed))
        // No check: whole again.
        r.abandonCheck = nil
        let again = r.render(splats, camera: Self.camera, into: checked)
        #expect(!again.abandoned)
        #expect(memcmp(plain.color, checked.color, plain.pixelCount * 4) == 0)
    }
}
