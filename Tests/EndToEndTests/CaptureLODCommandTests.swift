// A plain capture drawn under a splat budget through the real binary: `render` builds its levels
// of detail in memory (hermetic: nothing under $XDG_CACHE_HOME), or through `--lod-cache`, where
// the second run reads the cache and both frames are byte-identical to converting first and
// rendering the result; `--splat-budget none` draws it whole. (The capture is made by `generate`.)
import Foundation
import ImageIO
import TestSupport
import Testing

@Suite("Splat budget on a plain capture")
struct CaptureLODCommandTests {
    @Test func cachedFramesMatchConvertingFirst() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("capturelod")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ply = dir.appendingPathComponent("room.ply").path
        let g = try BinaryLocator.run(bin, ["generate", "20000", ply, "--scene", "room"])
        try #require(g.status == 0, "\(g.stderr)")
        let xdg = dir.appendingPathComponent("xdg").path, cache = dir.appendingPathComponent("lodcache").path
        var env = BinaryLocator.hermetic()
        env["XDG_CACHE_HOME"] = xdg
        func render(_ scene: String, _ extra: [String], _ out: String) throws -> (png: [UInt8], stderr: String) {
            let png = dir.appendingPathComponent(out).path
            let r = try BinaryLocator.run(bin, ["render", scene, "--eye", "0.05,0.02,0.6", "--size", "320x180", "--out", png] + extra,
                                          environment: env)
            try #require(r.status == 0, "\(r.stderr)")
            return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))), r.stderr)
        }
        // In memory: drawn under the budget, nothing cached anywhere.
        let memory = try render(ply, ["--splat-budget", "6000"], "memory.png")
        #expect(memory.stderr.contains("primitives") && !memory.stderr.contains("(20000 primitives)"), "\(memory.stderr)")
        #expect(!FileManager.default.fileExists(atPath: xdg), "render wrote under XDG_CACHE_HOME")
        // Through a cache: built once, then read; the same bytes as converting first.
        let first = try render(ply, ["--splat-budget", "6000", "--lod-cache", cache], "first.png")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { !$0.hasPrefix(".") }
        #expect(entries.count == 1, "\(entries)")
        let second = try render(ply, ["--splat-budget", "6000", "--lod-cache", cache], "second.png")
        #expect(first.png == second.png)
        let meta = dir.appendingPathComponent("converted/lod-meta.json").path
        let c = try BinaryLocator.run(bin, ["convert", ply, meta], environment: env)
        try #require(c.status == 0, "\(c.stderr)")
        let converted = try render(meta, ["--splat-budget", "6000"], "converted.png")
        #expect(converted.png == first.png, "a frame through the cache differs from the converted tree's")
        // Whole.
        let whole = try render(ply, ["--splat-budget", "none", "--lod-cache", cache], "whole.png")
        #expect(whole.stderr.contains("(20000 primitives)"), "\(whole.stderr)")
        // A forced level past the tree's is a one-line error.
        let bad = try BinaryLocator.run(bin, ["render", ply, "--lod", "9", "--eye", "0,0,0.6", "--size", "64x36",
                                              "--out", dir.appendingPathComponent("bad.png").path], environment: env)
        #expect(bad.status != 0 && bad.stderr.contains("level 9") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    @Test func aCacheThatCannotBeWrittenFallsBackToMemory() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("capturelod")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ply = dir.appendingPathComponent("obj.ply").path
        let g = try BinaryLocator.run(bin, ["generate", "100000", ply])
        try #require(g.status == 0, "\(g.stderr)")
        for (cacheArgs, why) in [(["--lod-cache", "/proc/self/lod"], "cannot cache"), (["--lod-cache", dir.appendingPathComponent("c").path, "--lod-cache-limit-mb", "1"], "limit")] {
            let r = try BinaryLocator.run(bin, ["render", ply, "--splat-budget", "2000", "--eye", "0,0,0.6", "--size", "64x36",
                                                "--out", dir.appendingPathComponent("o.png").path] + cacheArgs)
            #expect(r.status == 0 && r.stderr.contains(why) && r.stderr.contains("kept in memory"), "\(r.stderr)")
        }
    }
}
