// `splatframe bench` / `export` through the real binary: output structure only, never times.
import Foundation
import Testing
import TestSupport
import Viewer
import Bench
import HeadTracking

@Suite("bench and export command lines")
struct BenchCommandLineTests {
    static func binary() throws -> String {
        try #require(BinaryLocator.splatframe(), "build the package first (swift build): no .build/*/splatframe")
    }
    static let track = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/short-track.csv").path

    @Test("a short bench writes a table and a well-formed JSON record", arguments: [
        (["cube"], "triangles", ["clear", "vertex", "setup+bin", "raster"]),
        (["generate:300", "--track", track], "splats", ["clear", "preprocess", "sort", "bin", "blend"]),
    ])
    func shortBench(args: [String], kind: String, stages: [String]) throws {
        let dir = TestData.temporaryDirectory("bench-cli")
        let json = dir.appendingPathComponent("out.json").path
        let r = try BinaryLocator.run(try Self.binary(), ["bench"] + args + ["--frames", "3", "--warmup", "1", "--size", "64x36",
                                                                         "--threads", "1", "--repeat", "2", "--json", json])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("frame ms") && r.stdout.contains("fps (from median)") && r.stdout.contains("allocations per frame"))
        let doc = try BenchmarkDocument.load(json)
        let res = try #require(doc.results.first)
        #expect(doc.results.count == 1 && res.primitiveKind == kind && res.width == 64 && res.threads == 1)
        #expect(res.frameMs.count == 6 && res.runs.count == 2 && res.repeats == 2)
        #expect(res.stages.map(\.name) == stages)
        #expect((res.latency != nil) == args.contains("--track"))
        #expect((res.splatWork != nil) == (kind == "splats"))
        #expect(res.peakResidentBytes > 0 && !res.cpu.isEmpty)
        // Comparing a result with itself pairs every metric at ratio 1.
        let c = try BinaryLocator.run(try Self.binary(), ["bench"] + args + ["--frames", "2", "--warmup", "0", "--size", "64x36", "--compare", json])
        #expect(c.status == 0 && c.stdout.contains("ratio = old / new") && c.stdout.contains("[default]"), "\(c.stderr)")
    }

    @Test("a room with a video back wall reports the upload as an advance stage",
          .enabled(if: TestData.isAvailable, TestData.skipMessage))
    func videoWallBench() throws {
        let dir = TestData.temporaryDirectory("bench-video")
        let json = dir.appendingPathComponent("out.json").path
        let r = try BinaryLocator.run(try Self.binary(), ["bench", "cube", "--back", TestData.path("video/Megamind.avi"), "--frames", "6",
                                                         "--warmup", "1", "--size", "64x36", "--threads", "1", "--json", json])
        #expect(r.status == 0, "\(r.stderr)")
        let res = try #require(try BenchmarkDocument.load(json).results.first)
        #expect(res.stages.map(\.name) == ["clear", "vertex", "setup+bin", "raster", "advance"])
    }

    @Test func sweepPrintsTableAndCSV() throws {
        let r = try BinaryLocator.run(try Self.binary(), ["bench", "cube", "--sweep", "threads=1,2", "--frames", "2", "--warmup", "0", "--size", "48x27"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("sweep threads"))
        let csv = r.stdout.split(separator: "\n").filter { $0.contains(",") && ($0.hasPrefix("label,") || $0.hasPrefix("threads=")) }
        #expect(csv.count == 3 && csv[0].hasPrefix("label,scene,primitives,width,height,threads,median_ms"))
    }

    @Test("bad bench/export input: one line, exit 2", arguments: [
        (["bench", "cube", "--frames", "0"], "--frames"),
        (["bench", "/nonexistent/x.ply"], "/nonexistent/x.ply"),
        (["bench", "cube", "--track", "/nonexistent/t.csv"], "--track"),
        (["bench", "cube", "--sweep", "colour=1"], "--sweep"),
        (["bench", "cube", "--compare", "/nonexistent/old.json"], "/nonexistent/old.json"),
        (["bench", "generate:0"], "generate:"),
        (["export", "cube", "--track", "/nonexistent/t.csv", "--out", "/tmp/x"], "--track"),
    ])
    func badInput(args: [String], mentions: String) throws {
        let r = try BinaryLocator.run(try Self.binary(), args)
        #expect(r.status == 2, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(mentions), "\(r.stderr)")
    }

    @Test func exportWritesAPNGPerFrame() throws {
        let dir = TestData.temporaryDirectory("export-cli")
        let r = try BinaryLocator.run(try Self.binary(), ["export", "cube", "--track", Self.track, "--out", dir.path,
                                                          "--fps", "4", "--size", "48x27"])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files.count == 7 && files.first == "frame_00000.png")
        #expect(r.stderr.contains("7/7 frames"))
    }

    @Test("a video export pipes raw RGBA frames to ffmpeg (a stand-in ffmpeg on PATH records them)")
    func videoThroughFFmpegPipe() throws {
        let dir = TestData.temporaryDirectory("export-ffmpeg")
        let fake = dir.appendingPathComponent("ffmpeg")
        // Records its arguments and copies stdin to the last argument (the output file).
        try Data("#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args.txt\"\nfor last; do :; done\ncat > \"$last\"\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = dir.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let out = dir.appendingPathComponent("replay.mp4").path
        let r = try BinaryLocator.run(try Self.binary(), ["export", "cube", "--track", Self.track, "--out", out,
                                                          "--fps", "4", "--size", "48x27", "--quiet"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        let size = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        #expect(size == 7 * 48 * 27 * 4)
        let args = try String(contentsOf: dir.appendingPathComponent("args.txt"), encoding: .utf8)
        #expect(args.contains("-f rawvideo -pix_fmt rgba -s 48x27 -r 4 -i -") && args.contains("libx264"))
    }

    @Test func videoWithoutFFmpegIsAOneLineError() throws {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = TestData.temporaryDirectory("no-ffmpeg").path
        let r = try BinaryLocator.run(try Self.binary(), ["export", "cube", "--track", Self.track, "--out", "/tmp/x.mp4"], environment: env)
        #expect(r.status == 2 && r.stderr.contains("ffmpeg") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}

@Suite("bench and export are hermetic")
struct HermeticBenchTests {
    /// Runs `bench cube --track` with `XDG_CONFIG_HOME` pointing at a folder whose config
    /// file holds `userConfig` (nil: no file), plus `extra` arguments; returns the result and the last frame.
    static func bench(userConfig: String?, extra: [String] = []) throws -> (BenchmarkResult, Data) {
        let dir = TestData.temporaryDirectory("hermetic-bench")
        let xdg = dir.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: xdg.appendingPathComponent("splatframe"), withIntermediateDirectories: true)
        if let userConfig {
            try userConfig.write(to: xdg.appendingPathComponent("splatframe/config.json"), atomically: true, encoding: .utf8)
        }
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = xdg.path
        let json = dir.appendingPathComponent("r.json").path, png = dir.appendingPathComponent("last.png").path
        let r = try BinaryLocator.run(try BenchCommandLineTests.binary(),
                                      ["bench", "cube", "--track", BenchCommandLineTests.track, "--frames", "30", "--warmup", "0",
                                       "--path-rate", "10", "--size", "64x36", "--threads", "1", "--json", json, "--out", png] + extra,
                                      environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        return (try #require(try BenchmarkDocument.load(json).results.first), try Data(contentsOf: URL(fileURLWithPath: png)))
    }

    @Test func theUsersConfigNeverChangesABenchButConfigDoes() throws {
        let ema = #"{"filter": "ema:0.05", "screenWidthMM": 400, "screenHeightMM": 250}"#
        let (plain, plainFrame) = try Self.bench(userConfig: nil)
        let (withUserEMA, userFrame) = try Self.bench(userConfig: ema)
        #expect(plainFrame == userFrame, "the user's config file changed the frames")
        #expect(plain.settings == withUserEMA.settings)
        let s = try #require(plain.settings)
        #expect(s.configFile == nil && s.screenOrigin == "default" && s.screenMM == [600, 340])
        #expect(s.filter == FilterSpec.default.description && s.filter == "kalman-ca:0.6,3,3" && s.predictMs == 0 && s.movementScale == 1)

        let emaFile = TestData.temporaryDirectory("hermetic-config").appendingPathComponent("ema.json").path
        try ema.write(toFile: emaFile, atomically: true, encoding: .utf8)
        let (named, namedFrame) = try Self.bench(userConfig: nil, extra: ["--config", emaFile])
        let n = try #require(named.settings)
        #expect(n.configFile == emaFile && n.filter == "ema:0.05" && n.screenOrigin == "config file" && n.screenMM == [400, 250])
        #expect(namedFrame != plainFrame, "--config's EMA filter and screen must change the frames")
    }
}

@Suite("bench --target-fps")
struct BenchGovernorCommandLineTests {
    @Test("the governor's report: the budget it chose, frames within the target, the picture against the whole capture")
    func governedBench() throws {
        let dir = TestData.temporaryDirectory("bench-governor")
        let json = dir.appendingPathComponent("out.json").path, ply = dir.appendingPathComponent("capture.ply").path
        let g0 = try BinaryLocator.run(try BenchCommandLineTests.binary(), ["generate", "6000", ply])
        try #require(g0.status == 0, "\(g0.stderr)")
        let r = try BinaryLocator.run(try BenchCommandLineTests.binary(),
                                      ["bench", ply, "--splat-budget", "auto", "--target-fps", "30", "--frames", "12", "--warmup", "4",
                                       "--size", "96x54", "--threads", "1", "--json", json])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("governor: target 33.3 ms"), "\(r.stdout)")
        let res = try #require(try BenchmarkDocument.load(json).results.first)
        let g = try #require(res.governor)
        #expect(abs(g.targetMs - 1000.0 / 30) < 1e-9)
        #expect(g.budgetMedian >= 1 && g.budgetMedian <= g.wholeSplats && g.wholeSplats == 6000)
        #expect(g.heldFraction >= 0 && g.heldFraction <= 1 && g.renderScaleMin > 0 && g.renderScaleMin <= 1)
        #expect(g.frameP95Ms > 0)
        let psnr = try #require(g.psnrMean)
        #expect(psnr > 15, "a governed picture should look like the whole capture")
    }

    @Test("a pinned budget or a scene without levels is refused with one line")
    func refusals() throws {
        let ply = TestData.temporaryDirectory("bench-governor-pinned").appendingPathComponent("capture.ply").path
        let g0 = try BinaryLocator.run(try BenchCommandLineTests.binary(), ["generate", "3000", ply])
        try #require(g0.status == 0, "\(g0.stderr)")
        let pinned = try BinaryLocator.run(try BenchCommandLineTests.binary(),
                                           ["bench", ply, "--splat-budget", "2k", "--target-fps", "30", "--frames", "1", "--size", "32x18"])
        #expect(pinned.status != 0 && pinned.stderr.contains("pinned"), "\(pinned.stderr)")
        let cube = try BinaryLocator.run(try BenchCommandLineTests.binary(), ["bench", "cube", "--target-fps", "30", "--frames", "1", "--size", "32x18"])
        #expect(cube.status != 0 && cube.stderr.contains("levels of detail"), "\(cube.stderr)")
    }
}
