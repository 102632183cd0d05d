// Loading a scene is a function that can be cancelled between its steps: before anything is read,
// and between the files of a mixed scene.
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Viewer

@Suite("Scene loading can be cancelled")
struct SceneLoadingCancellationTests {
    @Test func aLoadCancelledBeforeItStartsReadsNothing() {
        #expect(throws: ViewerError.cancelled(path: "generate:1000")) {
            _ = try SceneLoader.load(path: "generate:1000", cancelled: { true })
        }
        #expect((try? SceneLoader.load(path: "generate:1000", cancelled: { false })) != nil)
    }

    /// The mixed demo scene reads three objects; a caller that cancels once the first has been
    /// asked about stops the load before the next file is read.
    @Test func aMixedSceneStopsBetweenItsFiles() throws {
        let json = TestData.projectRoot.appendingPathComponent("Scenes/mixed.json").path
        let asked = Atomic<Int>(0)
        #expect(throws: ViewerError.cancelled(path: json)) {
            _ = try SceneLoader.load(path: json, cancelled: { asked.add(1, ordering: .relaxed).newValue > 2 })
        }
        // Asked once up front, once before each object it read, and it stopped at the second object.
        #expect(asked.load(ordering: .relaxed) == 3)
        let whole = Atomic<Int>(0)
        _ = try SceneLoader.load(path: json, cancelled: { whole.add(1, ordering: .relaxed); return false })
        #expect(whole.load(ordering: .relaxed) == 4, "once up front and once per object")
    }
}
