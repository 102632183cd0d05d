// A plain capture whose whole read and in-memory build would not fit the memory bound is never
// held: the window gets a subsample at once and the tree built out of core into the cache, which
// the next opening draws at once; render gets the tree directly; one that fits opens as before.
import Foundation
import Procedural
import RenderCore
import SceneIO
import SplatLOD
import Testing
import TestSupport
import Workers
@testable import Viewer

struct TooLargeCaptureTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    /// A capture of `count` SH-0 splats, the options of a window with a cache in `dir`, a budget
    /// named and a memory bound the capture's in-memory build exceeds.
    /// `format` "spz" writes an .spz instead of a PLY (read by a spooling stream, not row by row).
    static func setUp(_ name: String, count: Int, format: String = "ply") throws -> (ply: String, options: SceneLoader.ModelOptions, dir: URL) {
        let dir = TestData.temporaryDirectory(name)
        let ply = dir.appendingPathComponent("big.\(format)").path
        let cloud = SplatSceneGenerator.object(count: count, seed: 5, shDegree: 0)
        if format == "spz" { try SPZWriter.write(cloud, to: ply) } else { try GaussianPLYWriter.write(cloud, to: ply) }
        var options = SceneLoader.ModelOptions()
        options.videoPlayback = .realtime
        options.lod.budget = 20_000; options.lod.budgetNamed = true
        options.lod.treeCache = LODCache(folder: dir.appendingPathComponent("cache").path)
        options.lod.maxMemoryBytes = 200 << 20
        options.lod.previewSplats = 5_000
        return (ply, options, dir)
    }

    @Test("the window shows a subsample at once, then the tree built out of core into the cache, never holding the capture",
          arguments: ["ply", "spz"])
    func theWindowShowsASubsampleThenTheTree(format: String) throws {
        // More splats than a chunk (65,536), so no chunk written can hold the whole capture either.
        let count = 70_000
        let (ply, options, dir) = try Self.setUp("toolarge-window", count: count, format: format)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(!OutOfCoreBuilder.inMemoryFits(splats: count, shDegree: 0, maxMemory: options.lod.maxMemoryBytes))

        let window = try SceneLoader.load(path: ply, options: options)
        let first = try window.scene(screen: Self.screen)
        #expect(first is ModelScene)
        #expect(first.primitiveCount == 5_000, "the subsample: every 14th splat")
        #expect(window.levelsFrom == nil && CaptureLOD.cached(ply, cache: options.lod.treeCache) == nil)
        #expect(window.warnings.contains { $0.contains("every 14th splat") })

        let job = try #require(window.levelOfDetailJob(screen: Self.screen))
        #expect(job.isOutOfCore)
        let lines = Locked<[String]>([])
        let tree = try job.run(cancelled: nil, progress: nil, detail: { line in lines.withLock { $0.append(line) } })
        #expect(tree.scene is LODSplatScene)
        let build = try #require(job.lastOutOfCoreBuild)
        #expect(build.streamedInput && build.regions > 1)
        #expect(build.mostSplatsHeld > 0 && build.mostSplatsHeld < count, "held \(build.mostSplatsHeld) of \(count) at once")
        #expect(lines.withLock { $0 }.contains { $0.hasPrefix("region ") && $0.contains(" of \(build.regions)") })
        let entry = try #require(CaptureLOD.cached(ply, cache: options.lod.treeCache))
        #expect(entry.1.captureSplats == count)
        // Nothing of the build is left beside the entry.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("cache").path)
        #expect(left == [entry.1.metaPath.split(separator: "/").dropLast().last.map(String.init) ?? "?"])

        // Opened again: the tree from the cache at once.
        let again = try SceneLoader.load(path: ply, options: options)
        #expect(again.levelsFrom == .cache && again.pendingLevels == nil)
        #expect(try again.scene(screen: Self.screen) is LODSplatScene)
    }

    @Test("render builds the tree out of core at once; a bound the capture fits keeps the whole read")
    func renderBuildsAtOnceAndACaptureThatFitsIsReadWhole() throws {
        let count = 12_000
        var (ply, options, dir) = try Self.setUp("toolarge-render", count: count)
        defer { try? FileManager.default.removeItem(at: dir) }
        options.videoPlayback = .frameExact
        options.lod.maxMemoryBytes = 257 << 20   // the in-memory build needs 256 MB + 296 bytes a splat
        let render = try SceneLoader.load(path: ply, options: options)
        #expect(render.levelsFrom == .built && render.pendingLevels == nil)
        #expect(render.warnings.contains { $0.contains("built out of core") })
        #expect(try render.scene(screen: Self.screen) is LODSplatScene)

        options.videoPlayback = .realtime
        options.lod.maxMemoryBytes = 1 << 30
        options.lod.treeCache = LODCache(folder: dir.appendingPathComponent("other").path)
        let window = try SceneLoader.load(path: ply, options: options)
        #expect(try window.scene(screen: Self.screen).primitiveCount == count)
        #expect(try #require(window.levelOfDetailJob(screen: Self.screen)).isOutOfCore == false)
    }

    @Test("a generated capture written a block at a time is the whole-cloud file, and the stream's sample is every k-th splat")
    func blocksAndSamples() throws {
        let dir = TestData.temporaryDirectory("toolarge-blocks")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("blocks.ply").path
        var blocks = SplatSceneGenerator.roomBlocks(count: 2_500, seed: 9, shDegree: 2)
        let writer = try GaussianPLYStreamWriter(path: path, count: 2_500, shDegree: 2)
        while let block = blocks.next(maxSplats: 700) { try writer.append(block) }
        try writer.finish()
        let whole = SplatSceneGenerator.room(count: 2_500, seed: 9, shDegree: 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(GaussianPLYWriter.encode(whole)))

        let stream = try #require(try PLYSplatStream.open(path))
        let read = try #require(try stream.next(maxSplats: 2_500))
        let sample = try stream.sample(step: 7)
        #expect(sample.count == 358)
        #expect(sample.positions == stride(from: 0, to: 2_500, by: 7).map { read.positions[$0] })
        let rest = 3 * SplatCloud.restCount(degree: 2)
        var picked: [Float] = []
        for i in stride(from: 0, to: 2_500, by: 7) { picked += read.shRest[(i * rest)..<((i + 1) * rest)] }
        #expect(sample.shRest == picked)

        // A writer given fewer splats than its header promised says so.
        let short = try GaussianPLYStreamWriter(path: path, count: 10, shDegree: 0)
        try short.append(SplatSceneGenerator.object(count: 4, shDegree: 0))
        #expect(throws: SceneIOError.self) { try short.finish() }
    }
}
