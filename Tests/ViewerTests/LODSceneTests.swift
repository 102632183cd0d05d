// Streamed SOG with level of detail: which level each leaf draws for a camera, the budget, forced
// levels, one-level-per-frame transitions, streaming on a background thread, missing chunks, the
// byte-bounded cache, and the assembled frame against the reference renderer.
import Foundation
import Testing
import RenderCore
import SceneIO
import SplatRender
import TestSupport
@testable import SplatLOD
@testable import Viewer

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage), .serialized)
struct LODSceneTests {
    static let playbot = TestData.path("splats/sog/playbot-lod/lod-meta.json")
    static let screen = ScreenGeometry.fallback
    static let setup = ViewingSetup(screen: screen)

    static func open(_ path: String = playbot, budget: Int? = LODOptions.defaultBudget, forced: Int? = nil,
                     cacheBytes: Int = 1 << 30, realtime: Bool = false, ownCoordinates: Bool = false) throws -> (LODSplatScene, [String]) {
        var o = SceneLoader.ModelOptions()
        o.videoPlayback = realtime ? .realtime : .frameExact
        o.lod.budget = budget
        o.lod.forcedLevel = forced
        o.lod.cacheBytes = cacheBytes
        // The small test images stand for the centre of a 1280×720 frame (`ownCamera`, `centre`):
        // what such a crop shows is not what the frame would, so budgets follow the box rule here
        // (the visible-area rule: LODVisibilityTests).
        o.lod.spendsBudgetByVisibleArea = false
        let loader = try SceneLoader.load(path: path, options: o)
        let scene = ownCoordinates ? try loader.sceneInOwnCoordinates(screen: screen) : try loader.scene(screen: screen)
        return (try #require(scene as? LODSplatScene), loader.warnings)
    }

    /// A camera in the model's own frame (camera JSON mode), looking at the playbot's centre along
    /// −z, with a focal length of `focal` pixels (772: a 50° vertical field at 1280×720), so that a
    /// small test image sees the model as a 1280×720 frame would (the centre of it).
    static func ownCamera(distance: Float, width: Int = 1280, height: Int = 720, focal: Float = 772) -> Camera {
        let target = Vec3(0, -0.5, 0)
        let fovY = 2 * atan(Float(height) / 2 / focal)
        return Camera(width: width, height: height,
                      view: Matrix4.lookAt(eye: target + Vec3(0, 0, distance), target: target, up: Vec3(0, 1, 0)),
                      projection: Matrix4.perspective(fovY: fovY, aspect: Float(width) / Float(height), near: 0.05, far: 500))
    }

    /// The off-axis window camera for an eye (metres, screen space) at 1280×720.
    static func windowCamera(eye: Vec3 = Vec3(0, 0, 0.6)) -> Camera {
        setup.camera(eye: eye, width: 1280, height: 720)
    }

    /// The pixels `x0 ..< x0 + w`, `y0 ..< y0 + h` of `camera`'s image as a camera of their own: the
    /// same frustum narrowed (same focal length in pixels).
    static func crop(_ camera: Camera, x0: Int, y0: Int, w: Int, h: Int) -> Camera {
        var c = camera
        let W = Float(camera.width), H = Float(camera.height)
        let tx = (W - 2 * Float(x0)) / Float(w) - 1, ty = 1 - (H - 2 * Float(y0)) / Float(h)
        let S = Matrix4(Vec4(W / Float(w), 0, 0, 0), Vec4(0, H / Float(h), 0, 0), Vec4(0, 0, 1, 0), Vec4(tx, ty, 0, 1))
        c.projection = S * camera.projection
        c.width = w; c.height = h
        return c
    }

    /// The centre `w`×`h` pixels of `camera`'s image.
    static func centre(_ camera: Camera, _ w: Int = 32, _ h: Int = 18) -> Camera {
        crop(camera, x0: (camera.width - w) / 2, y0: (camera.height - h) / 2, w: w, h: h)
    }

    /// The camera the scene's renderer sees (the placement folded into the view).
    static func modelCamera(_ scene: LODSplatScene, _ camera: Camera) -> Camera {
        var c = camera
        c.view = camera.view * scene.modelMatrix
        return c
    }

    /// A writable copy of the playbot's streamed SOG (so chunks can be deleted or broken).
    static func copyPlaybot() throws -> URL {
        let dir = TestData.temporaryDirectory("lod-viewer")
        let src = URL(fileURLWithPath: TestData.path("splats/sog/playbot-lod"))
        for item in try FileManager.default.contentsOfDirectory(atPath: src.path) {
            try FileManager.default.copyItem(at: src.appendingPathComponent(item), to: dir.appendingPathComponent(item))
        }
        let e = FileManager.default.enumerator(atPath: dir.path)
        while let f = e?.nextObject() as? String {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent(f).path)
        }
        return dir
    }

    // MARK: - Choosing levels

    @Test func farEyesWantCoarseLevelsAndNearEyesLevelZero() throws {
        let (scene, _) = try Self.open(budget: nil, ownCoordinates: true)
        let sel = scene.selector
        var previous = [0, 0]
        var sawMixed = false
        // Walking the eye away: each leaf's wanted level never gets finer, the nearer leaf (the
        // front one, node 1, whose box reaches z = 1.04) never coarser than the far one.
        for d in stride(from: Float(2), through: 300, by: 0.25) {
            sel.choose(camera: Self.ownCamera(distance: d), budget: nil, forced: nil)
            let w = sel.wanted
            #expect(w[0] >= previous[0] && w[1] >= previous[1], "eye at \(d): \(w) after \(previous)")
            #expect(w[1] <= w[0], "eye at \(d): the nearer leaf wants \(w[1]), the farther \(w[0])")
            if w[0] != w[1] { sawMixed = true }
            previous = w
        }
        #expect(sawMixed, "some distance should split the two leaves' levels")
        sel.choose(camera: Self.ownCamera(distance: 2.5), budget: nil, forced: nil)
        #expect(sel.wanted == [0, 0])
        sel.choose(camera: Self.ownCamera(distance: 300), budget: nil, forced: nil)
        #expect(sel.wanted == [6, 6])
        // Through the window the model keeps its on-screen size as the eye backs away (a true
        // window): zooming the model out is what makes it small.
        let (window, _) = try Self.open(budget: nil)
        window.selector.choose(camera: Self.modelCamera(window, Self.windowCamera()), budget: nil, forced: nil)
        #expect(window.selector.wanted == [0, 0])
        window.modelPlacement.zoom = 0.01
        window.selector.choose(camera: Self.modelCamera(window, Self.windowCamera()), budget: nil, forced: nil)
        #expect(window.selector.wanted.allSatisfy { $0 >= 5 }, "\(window.selector.wanted)")
    }

    @Test func aNearEyeDrawsLevelZero() throws {
        let (scene, _) = try Self.open(budget: nil, ownCoordinates: true)
        let fb = Framebuffer(width: 48, height: 27)
        _ = scene.render(camera: Self.ownCamera(distance: 2.5, width: 48, height: 27), into: fb, context: RenderContext(threads: 2))
        #expect(scene.wantedLevels == [0, 0] && scene.shownLevels == [0, 0])
        #expect(scene.primitiveCount == 500_000 && scene.statusLine == nil && scene.isSettled)
        // What a change of selection costs: re-assembling 500,000 splats into the warm buffer
        // (plain copies, so a debug build measures what a release build would).
        var blocks: [PreparedSplats] = []
        scene.store.blocks([(0, 0), (1, 0)][...], into: &blocks)
        var times: [Double] = []
        for _ in 0..<5 {
            let t = MonotonicClock.now()
            scene.assembly.assemble(blocks)
            times.append((MonotonicClock.now() - t) * 1000)
        }
        #expect(scene.assembly.count >= 500_000 && scene.assembly.count <= 500_016)
        print(String(format: "LOD assembly of 500,000 splats: first %.2f ms, then median %.2f ms", scene.lastAssemblyMs, times.sorted()[2]))
    }

    @Test func aForcedLevelIsDrawnEverywhere() throws {
        let (scene, _) = try Self.open(forced: 4)
        let fb = Framebuffer(width: 32, height: 18)
        _ = scene.render(camera: Self.centre(Self.windowCamera()), into: fb, context: RenderContext(threads: 2))
        #expect(scene.shownLevels == [4, 4] && scene.primitiveCount == 8_406)
        // Out-of-range levels are an option error naming the file's levels.
        #expect(throws: ViewerError.self) { try Self.open(forced: 7) }
    }

    @Test func theBudgetIsRespected() throws {
        let (scene, _) = try Self.open(budget: nil)
        let sel = scene.selector
        let cam = Self.modelCamera(scene, Self.windowCamera())
        for budget in [400_000, 150_000, 80_000, 40_000, 10_000, 5_000] {
            sel.choose(camera: cam, budget: budget, forced: nil)
            #expect(sel.wantedSplats <= budget, "budget \(budget): \(sel.wanted) holds \(sel.wantedSplats)")
            // And it is not needlessly coarse: refining any one leaf by a level would break it.
            for n in 0..<2 where sel.wanted[n] > 0 {
                let finer = sel.wantedSplats - sel.count(n, sel.wanted[n]) + sel.count(n, sel.wanted[n] - 1)
                #expect(finer > budget || sel.effectiveThreshold <= sel.pixelThreshold * 1.001, "budget \(budget): \(sel.wanted)")
            }
        }
        // Below the coarsest level everything is at its coarsest.
        sel.choose(camera: cam, budget: 1, forced: nil)
        #expect(sel.wanted == [6, 6])
        // Frame by frame along a path, what is shown stays within the budget.
        let (walk, _) = try Self.open(budget: 40_000)
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 2)
        for i in 0..<24 {
            let eye = Vec3(0.2 * sin(Float(i) / 3), 0.05, 0.3 + 0.1 * Float(i % 8))
            walk.modelPlacement.zoom = i < 12 ? 1 : 0.2
            _ = walk.render(camera: Self.centre(Self.windowCamera(eye: eye)), into: fb, context: ctx)
            #expect(walk.primitiveCount <= 40_000, "frame \(i): \(walk.shownLevels) holds \(walk.primitiveCount)")
        }
    }

    // MARK: - Transitions

    @Test func transitionsStepOneLevelPerFrame() throws {
        let (scene, _) = try Self.open(budget: 130_000, ownCoordinates: true)
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 2)
        let far = Self.ownCamera(distance: 300, width: 32, height: 18), near = Self.ownCamera(distance: 2.5, width: 32, height: 18)
        // The first frame of a frame-exact scene shows what it wants at once.
        _ = scene.render(camera: far, into: fb, context: ctx)
        #expect(scene.shownLevels == [6, 6])
        var history: [[Int]] = [scene.shownLevels]
        for _ in 0..<8 {
            _ = scene.render(camera: near, into: fb, context: ctx)
            history.append(scene.shownLevels)
        }
        // 130k splats: level 2 for both leaves (125,000); one level per frame from 6.
        #expect(scene.wantedLevels == [2, 2])
        #expect(history.prefix(6).map { $0[0] } == [6, 5, 4, 3, 2, 2], "\(history)")
        #expect(history.prefix(6).map { $0[1] } == [6, 5, 4, 3, 2, 2], "\(history)")
        for _ in 0..<6 { _ = scene.render(camera: far, into: fb, context: ctx); history.append(scene.shownLevels) }
        #expect(history.suffix(6).map { $0[0] } == [3, 4, 5, 6, 6, 6], "\(history)")
        for (a, b) in zip(history, history.dropFirst()) {
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 1 }, "\(a) → \(b)")
        }
        print(String(format: "LOD assembly of %d splats (levels %@): %.2f ms", scene.primitiveCount, "\(scene.shownLevels)", scene.lastAssemblyMs))
        // A steady view re-assembles nothing.
        let count = scene.assemblies
        for _ in 0..<3 { _ = scene.render(camera: far, into: fb, context: ctx) }
        #expect(scene.assemblies == count)
    }

    @Test func chunksStreamInWithoutTheFrameWaiting() throws {
        let (scene, _) = try Self.open(budget: 130_000, realtime: true, ownCoordinates: true)
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 2)
        let near = Self.ownCamera(distance: 2.5, width: 32, height: 18)
        _ = scene.render(camera: near, into: fb, context: ctx)
        // Nothing was loaded: the first frame drew nothing and said so, instead of waiting.
        #expect(scene.shownLevels == [-1, -1] && scene.primitiveCount == 0)
        let status = try #require(scene.statusLine)
        #expect(status.hasPrefix("LOD: "))
        var history: [[Int]] = []
        // The frame loop (this test) draws until the chunks have streamed in; the generous deadline
        // only catches a loader that never finishes.
        Wait.until(timeout: 120, poll: 0.01) {
            if scene.isSettled { return true }
            _ = scene.render(camera: near, into: fb, context: ctx)
            history.append(scene.shownLevels)
            return false
        }
        #expect(scene.isSettled && scene.shownLevels == [2, 2] && scene.statusLine == nil, "\(history.suffix(5))")
        // Once something is shown, no frame moved a leaf by more than one level.
        for (a, b) in zip(history, history.dropFirst()) {
            #expect(zip(a, b).allSatisfy { $0 < 0 || abs($0 - $1) <= 1 }, "\(a) → \(b)")
        }
    }

    // MARK: - Missing and broken chunks

    @Test func aMissingChunkFolderIsReportedAndSkipped() throws {
        let dir = try Self.copyPlaybot()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("2_0"))
        let (scene, warnings) = try Self.open(dir.path, budget: 130_000, ownCoordinates: true)
        #expect(warnings.count == 1 && warnings[0].contains("2_0/meta.json") && warnings[0].contains("missing"))
        let fb = Framebuffer(width: 32, height: 18)
        _ = scene.render(camera: Self.ownCamera(distance: 2.5, width: 32, height: 18), into: fb, context: RenderContext(threads: 2))
        // Level 2 is gone and level 1 (250k) is over the budget: level 3.
        #expect(scene.shownLevels == [3, 3] && scene.primitiveCount == 31_000)
        #expect(scene.statusLine == "1 chunk unavailable: 2_0/meta.json")
    }

    @Test func aChunkThatVanishesOrIsCorruptFallsBack() throws {
        let dir = try Self.copyPlaybot()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (scene, warnings) = try Self.open(dir.path, forced: 4)
        #expect(warnings.isEmpty)
        // After opening: level 4's folder vanishes, level 5's positions are garbage.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("4_0"))
        try Data(repeating: 7, count: 100).write(to: dir.appendingPathComponent("5_0/means_l.webp"))
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 2)
        let cam = Self.centre(Self.windowCamera())
        // Level 4 fails; its nearest usable level (ties go coarser) is 5, which fails too; then 3.
        for _ in 0..<3 { _ = scene.render(camera: cam, into: fb, context: ctx) }
        #expect(scene.shownLevels == [3, 3], "\(scene.shownLevels)")
        // Asking for 5 now gets its nearest usable level, 6, one step away from 3 (4 and 5 are gone).
        scene.options.forcedLevel = 5
        for _ in 0..<3 { _ = scene.render(camera: cam, into: fb, context: ctx) }
        #expect(scene.shownLevels == [6, 6], "\(scene.shownLevels)")
        let status = try #require(scene.statusLine)
        #expect(status.contains("2 chunks unavailable") && status.contains("4_0/meta.json") && status.contains("5_0/meta.json"), "\(status)")
        #expect(scene.problems.count == 2 && scene.problems.allSatisfy { !$0.contains("\n") })
    }

    // MARK: - Cache

    @Test func theCacheEvictsWhatNoFrameNeeds() throws {
        let (scene, _) = try Self.open(forced: 6, cacheBytes: 1)
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 2)
        let cam = Self.centre(Self.windowCamera())
        for level in [6, 5, 4, 3] {
            scene.options.forcedLevel = level
            for _ in 0..<2 { _ = scene.render(camera: cam, into: fb, context: ctx) }
            #expect(scene.shownLevels == [level, level])
        }
        let p = scene.store.progress()
        // Only the shown chunk (level 3) is pinned; the others went as soon as nothing needed them.
        #expect(p.loads == 4 && p.evictions == 3, "\(p)")
        #expect(scene.store.withLock { $0.blocks.compactMap { $0 }.count } == 1)
    }

    @Test func aFramesDecodingIsTimedApartFromTheRest() throws {
        // Frame-exact, the frame that needs a level decodes it inside `render`: that time is
        // reported on its own (the bench's governor leaves it out, as the window never pays it).
        let (scene, _) = try Self.open(forced: 5)
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 2)
        let cam = Self.centre(Self.windowCamera())
        let first = scene.render(camera: cam, into: fb, context: ctx)
        #expect(first.decodeMs > 0 && first.decodeMs <= first.lodMs, "\(first.decodeMs) of \(first.lodMs) ms")
        scene.advance(to: 0.1)
        let again = scene.render(camera: cam, into: fb, context: ctx)   // the same level: nothing to decode
        #expect(again.decodeMs == 0, "\(again.decodeMs) ms")
    }

    // MARK: - Against the reference renderer

    @Test func anLODFrameCropMatchesTheReference() throws {
        let (scene, _) = try Self.open(budget: 80_000)
        // The frame's choice for the full 1280×720 window camera (no need to draw all of it).
        let full = Self.modelCamera(scene, Self.windowCamera())
        scene.stream.update(camera: full)
        let shown = scene.shownLevels
        #expect(shown.allSatisfy { $0 >= 0 } && scene.primitiveCount <= 80_000, "\(shown)")
        // The frame's splats as one cloud: each leaf's shown range, decoded again.
        let sog = scene.sog
        var cloud = SplatCloud(shDegree: sog.shDegree)
        for (n, level) in shown.enumerated() {
            let r = try #require(sog.usableRange(node: n, level: level))
            let chunk = try sog.loadChunk(r.chunk)
            let k = chunk.shRestCount * 3
            for i in r.indices {
                cloud.append(position: chunk.positions[i], scale: chunk.scales[i], rotation: chunk.rotations[i],
                             opacity: chunk.opacities[i], dc: chunk.dc[i], rest: Array(chunk.shRest[(i * k)..<((i + 1) * k)]))
            }
        }
        #expect(cloud.count == scene.primitiveCount)
        // A 64×40 crop of the frame around the robot's face.
        let crop = Self.crop(full, x0: 608, y0: 200, w: 64, h: 40)
        let fast = Framebuffer(width: crop.width, height: crop.height)
        SplatRenderer(threads: 2).render(scene.assembly, camera: crop, into: fast)
        let ref = ReferenceSplatRenderer.render(cloud, camera: crop)
        let cmp = ImageComparison(fast.image(), ref.image())
        print("LOD crop (levels \(shown), \(cloud.count) splats) vs reference: \(cmp)")
        if cmp.psnr < 40 { _ = ImageComparison.writeFailureImages(name: "lod-crop", actual: fast.image(), expected: ref.image()) }
        #expect(cmp.psnr >= 40, "\(cmp)")
        // The crop shows the robot, not background.
        let bg = PackedColor.pack(r: 0, g: 0, b: 0)
        #expect(fast.colorArray.filter { $0 != bg }.count > 64 * 40 / 2)
    }
}
