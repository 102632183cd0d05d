// SOG scenes open through the same loader as every other file: a .sog, a folder, its meta.json.
import Foundation
import Testing
import RenderCore
import SceneIO
import Procedural
import TestSupport
@testable import Viewer

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct SOGOpeningTests {
    @Test(arguments: ["splats/sog/monkey_0001.sog", "splats/sog/playcanvas-logo", "splats/sog/playcanvas-logo/meta.json"])
    func sogScenesOpenAsSplats(path: String) throws {
        let full = TestData.path(path)
        #expect(!SceneSource.isSceneDescription(full))
        let scene = try SceneLoader.load(path: full).scene(screen: .fallback)
        #expect(scene.primitiveKind == .splats && scene.primitiveCount > 30_000 && scene.placement != nil)
    }

    @Test func ourSceneFilesAreStillSceneDescriptions() {
        #expect(SceneSource.isSceneDescription("Scenes/cube.json"))
        #expect(!SceneSource.isSceneDescription("x/lod-meta.json") && !SceneSource.isSceneDescription("x/META.json"))
    }
}

@Suite struct FileFlagTests {
    /// An .spz flagged "antialiased" turns the renderer's compensation on unless the user says otherwise.
    @Test func spzAntialiasFlagIsHonouredUnlessOverridden() throws {
        let dir = TestData.temporaryDirectory("aa")
        let ply = dir.appendingPathComponent("in.ply").path, spz = dir.appendingPathComponent("aa.spz").path
        try SceneFile.save(.splats(SplatSceneGenerator.object(count: 50)), to: ply)
        _ = try SceneFile.convert(input: ply, output: spz, spz: SPZWriteOptions(version: 4, antialiased: true))
        let flagged = try #require(try SceneLoader.load(path: spz).scene(screen: .fallback) as? ModelScene)
        #expect(flagged.antialias)
        var off = SceneLoader.ModelOptions(); off.antialias = false
        let overridden = try #require(try SceneLoader.load(path: spz, options: off).scene(screen: .fallback) as? ModelScene)
        #expect(!overridden.antialias)
        let plain = try #require(try SceneLoader.load(path: ply).scene(screen: .fallback) as? ModelScene)
        #expect(!plain.antialias)
    }

    /// A PLY whose header says `SplatRenderMode: mip` turns it on too: drawn whole, with levels of
    /// detail built at once (render, bench) or in the background (the window).
    @Test func plyRenderModeMipIsHonouredWithAndWithoutLevels() throws {
        let ply = TestData.temporaryDirectory("mip").appendingPathComponent("mip.ply").path
        try SceneFile.save(.splats(SplatSceneGenerator.object(count: 300)), to: ply, renderMode: .mip)
        #expect(try #require(try SceneLoader.load(path: ply).scene(screen: .fallback) as? ModelScene).antialias)
        var levels = SceneLoader.ModelOptions()
        levels.lod.forcedLevel = 0
        levels.videoPlayback = .frameExact
        #expect(try #require(try SceneLoader.load(path: ply, options: levels).scene(screen: .fallback) as? LODSplatScene).antialias)
        levels.videoPlayback = .realtime
        let job = try #require(try SceneLoader.load(path: ply, options: levels).levelOfDetailJob(screen: .fallback))
        #expect(try #require(try job.run(cancelled: nil, progress: nil).scene as? LODSplatScene).antialias)
        levels.antialias = false
        levels.videoPlayback = .frameExact
        #expect(!(try #require(try SceneLoader.load(path: ply, options: levels).scene(screen: .fallback) as? LODSplatScene)).antialias)
    }
}
