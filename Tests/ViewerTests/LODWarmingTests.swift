// A governed window decodes ahead what a still eye will want (`LODOptions.warmsStillView`): while
// a budget holds the frame, the loaders fill in the levels the view wants without it, so that a
// head that stops gets its whole picture on the next frame, waiting for no decoding.
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
import SplatRender
import Testing
import Procedural
import TestSupport
import Workers
@testable import Viewer

struct LODWarmingTests {
    /// 1.5 m from the wall: the view wants far more than the budget at a quarter pixel.
    static let camera = LODPrefetchTests.camera(z: 1.5)

    static func levels(warms: Bool) throws -> StreamedLevels {
        var o = LODOptions()
        o.budget = 1500; o.pixelThreshold = 0.25; o.warmsStillView = warms
        return StreamedLevels(sog: try LODPrefetchTests.wallTree(), options: o, realtime: true)
    }

    /// Chunks of the levels the view wants without the budget that are not decoded yet.
    static func missing(_ levels: StreamedLevels) -> Int {
        var state = [UInt8](repeating: 0, count: levels.sog.chunks.count)
        levels.store.snapshot(into: &state)
        return (0..<levels.selector.nodeCount).filter { n in
            let l = levels.selector.unbudgetedWanted[n]
            return l >= 0 && state[levels.store.chunk(node: n, level: l)] != 1
        }.count
    }

    @Test func aStillViewsLevelsAreDecodedAheadAndShownAtOnce() throws {
        let levels = try Self.levels(warms: true)
        defer { levels.stop() }
        levels.update(camera: Self.camera, threads: 1)
        try #require(levels.selector.unbudgetedSplats > 4 * 1500, "the test needs a view that wants far more than the budget")
        // Nothing was decoded when the first frame asked: the still view is not ready.
        #expect(!levels.stillViewReady && levels.stillViewProgress < 1)
        let warmed = Wait.until {
            levels.update(camera: Self.camera, threads: 1)
            return Self.missing(levels) == 0
        }
        #expect(warmed, "\(Self.missing(levels)) of the still view's chunks never decoded")
        // The next frame sees them all decoded: ready (a governor may now show them in one step).
        levels.update(camera: Self.camera, threads: 1)
        #expect(levels.stillViewReady && levels.stillViewProgress == 1)
        #expect(levels.preparesStillView && levels.splats.capacity >= levels.selector.unbudgetedSplats)
        #expect(levels.shownSplats <= 1500)
        // The head stops: the budget lifts to the whole capture, and the next frame shows it.
        levels.options.budget = nil
        levels.options.refinesAtOnce = true
        levels.update(camera: Self.camera, threads: 1)
        #expect(levels.isSettled, "\(levels.shownSplats) shown of \(levels.selector.wantedSplats) wanted")
    }

    /// Without it (a pinned budget), nothing beyond the frame's own levels is asked for.
    @Test func withoutWarmingOnlyTheFramesOwnLevelsAreDecoded() throws {
        let levels = try Self.levels(warms: false)
        defer { levels.stop() }
        let settled = Wait.until {
            levels.update(camera: Self.camera, threads: 1)
            return levels.isSettled && levels.store.progress().pending == 0
        }
        try #require(settled)
        #expect(Self.missing(levels) > 0)
        #expect(levels.stillViewReady, "nothing is decoded ahead: nothing to wait for")
    }
    /// Frame-exact (render, bench, export) decodes what each frame needs in the frame: nothing
    /// ahead, and no room made ahead (a background fault-in would only compete with that frame).
    @Test func frameExactLevelsPrepareNothingAhead() throws {
        var o = LODOptions()
        o.budget = 1500; o.pixelThreshold = 0.25; o.warmsStillView = true
        let levels = StreamedLevels(sog: try LODPrefetchTests.wallTree(), options: o, realtime: false)
        for _ in 0..<4 { levels.update(camera: Self.camera, threads: 1) }
        #expect(!levels.preparesStillView && levels.stillViewReady)
        #expect(Self.missing(levels) > 0)
    }
}

/// Prefaulting changes no byte (`MemoryPrefault`), and an assembly given room keeps what it held.
struct PrefaultTests {
    @Test func populatingKeepsTheContents() {
        let n = 3 << 20
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer { p.deallocate() }
        for i in stride(from: 0, to: n, by: 4096 * 3) { p[i] = UInt8(truncatingIfNeeded: i / 4096 + 1) }
        MemoryPrefault.populate(UnsafeMutableRawPointer(p), bytes: n)
        #expect(stride(from: 0, to: n, by: 4096 * 3).allSatisfy { p[$0] == UInt8(truncatingIfNeeded: $0 / 4096 + 1) })
    }

    @Test func aReservedAssemblyDrawsTheSame() {
        let a = SplatRenderer.prepare(SplatSceneGenerator.object(count: 3000, shDegree: 1))
        let assembly = PreparedSplats(assemblyCapacity: 8, shDegree: 1)
        assembly.assemble([a])
        let camera = Camera(width: 160, height: 120, view: Matrix4.lookAt(eye: Vec3(0, 0, 3), target: .zero, up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 0.8, aspect: 4 / 3, near: 0.01, far: 100))
        let renderer = SplatRenderer(threads: 2)
        let before = Framebuffer(width: 160, height: 120), after = Framebuffer(width: 160, height: 120)
        renderer.render(assembly, camera: camera, into: before)
        assembly.reserveAssembly(100_000, prefault: true)
        #expect(assembly.capacity >= 100_000)
        renderer.reserve(splats: assembly.capacity, prefault: true)
        renderer.render(assembly, camera: camera, into: after)
        #expect(after.image() == before.image())
    }
}
