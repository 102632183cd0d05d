// `splatframe cache` through the real binary, on a cache home of its own (`--cache-dir`): a tree
// built by `render --lod-cache` and a download kept by `info URL` are listed with their sources,
// sizes and totals against the bounds (the download bound from the config file), then cleared
// one cache at a time, each clear saying what it freed; `info` on a streamed tree says what
// drawing it needs at the default budget and at a named one.
import Foundation
import TestSupport
import Testing

@Suite("splatframe cache")
struct CacheCommandTests {
    @Test func listsAndClearsBothCaches() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("cache-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home").path
        let ply = dir.appendingPathComponent("room.ply").path
        var env = BinaryLocator.hermetic()
        let config = try #require(env["XDG_CONFIG_HOME"]) + "/splatframe/config.json"
        try FileManager.default.createDirectory(atPath: (config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"downloadCacheLimitMB": 300}"#.utf8).write(to: URL(fileURLWithPath: config))
        defer { try? FileManager.default.removeItem(atPath: config) }
        try #require(try BinaryLocator.run(bin, ["generate", "20000", ply, "--scene", "room"]).status == 0)
        let r = try BinaryLocator.run(bin, ["render", ply, "--splat-budget", "6000", "--lod-cache", home + "/splatframe/lod",
                                            "--eye", "0,0,0.6", "--size", "32x18", "--out", dir.appendingPathComponent("o.png").path])
        try #require(r.status == 0, "\(r.stderr)")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/scene.ply", .file(Array(try Data(contentsOf: URL(fileURLWithPath: ply))), etag: "\"e\"", lastModified: nil))
        env["XDG_CACHE_HOME"] = home
        let i = try BinaryLocator.run(bin, ["info", server.url("/scene.ply"), "--allow-http"], environment: env)
        try #require(i.status == 0, "\(i.stderr)")

        func cache(_ args: [String]) throws -> String {
            let c = try BinaryLocator.run(bin, ["cache"] + args + ["--cache-dir", home], environment: env)
            #expect(c.status == 0, "\(c.stderr)")
            return c.stdout
        }
        let listed = try cache([])
        #expect(listed.contains("1 tree,") && listed.contains("of 8192 MB") && listed.contains("room.ply"), "\(listed)")
        #expect(listed.contains("1 download,") && listed.contains("of 300 MB") && listed.contains(server.url("/scene.ply")), "\(listed)")
        #expect(try cache(["list"]) == listed)
        let downloads = try cache(["clear", "--downloads"])
        #expect(downloads.contains("downloads: freed") && downloads.contains("(1 download)") && !downloads.contains("level-of-detail"), "\(downloads)")
        let after = try cache([])
        #expect(after.contains("1 tree,") && after.contains("0 downloads,"), "\(after)")
        let all = try cache(["clear"])
        #expect(all.contains("level-of-detail trees: freed") && all.contains("(1 tree)") && all.contains("(0 downloads)"), "\(all)")
        #expect(try cache([]).contains("0 trees,"))
    }

    @Test func infoOnAStreamedTreeSaysWhatDrawingItNeeds() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("cache-info")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ply = dir.appendingPathComponent("room.ply").path, meta = dir.appendingPathComponent("tree/lod-meta.json").path
        try #require(try BinaryLocator.run(bin, ["generate", "20000", ply, "--scene", "room"]).status == 0)
        let c = try BinaryLocator.run(bin, ["convert", ply, meta])
        try #require(c.status == 0, "\(c.stderr)")
        let plain = try BinaryLocator.run(bin, ["info", meta])
        // The chunk cache's bound is a sixth of the machine's memory, 1024 to 8192 MB.
        let cached = plain.stdout.split(separator: "plus up to ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(plain.status == 0 && plain.stdout.contains("to draw:  about ")
                && plain.stdout.contains("MB at the default budget of 50,000 splats (plus up to ")
                && plain.stdout.contains(" MB of cached chunks)") && (1024...8192).contains(cached), "\(plain.stdout)")
        let named = try BinaryLocator.run(bin, ["info", meta, "--splat-budget", "10k"])
        #expect(named.stdout.contains("at a budget of 10,000 splats"), "\(named.stdout)")
        let json = try BinaryLocator.run(bin, ["info", meta, "--json"])
        #expect(json.stdout.contains("\"drawMemoryBytes\""), "\(json.stdout)")
        let wrong = try BinaryLocator.run(bin, ["info", ply, "--splat-budget", "10k"])
        #expect(wrong.status != 0 && wrong.stderr.contains("--splat-budget") && wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
    }
}
