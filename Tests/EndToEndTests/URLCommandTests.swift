// Scenes named by URL through the real binary, served by a loopback server the test starts:
// `render` (hermetic: a temporary download, nothing cached), `info` (cached under
// $XDG_CACHE_HOME, revalidated the second time), the failures as one line, a URL dropped on the
// window, and a library feed whose first scene opens in the window.
import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

@Suite("Scenes from URLs", .serialized)
struct URLCommandTests {
    /// A generated capture's bytes.
    static func capture(_ splats: Int) throws -> [UInt8] {
        let path = TestData.temporaryDirectory("url-capture").appendingPathComponent("c.ply").path
        let g = try BinaryLocator.run(try #require(BinaryLocator.splatframe()), ["generate", "\(splats)", path])
        try #require(g.status == 0, "\(g.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func renderAndInfoFromAURL() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/scene.ply", .file(try Self.capture(3000), etag: "\"e1\"", lastModified: nil))
        server.route("/big.ply", .file(try Self.capture(10000), etag: nil, lastModified: nil))   // about 2.4 MB
        let url = server.url("/scene.ply")
        let xdg = TestData.temporaryDirectory("url-xdg").path
        var env = BinaryLocator.hermetic()
        env["XDG_CACHE_HOME"] = xdg
        let dir = TestData.temporaryDirectory("url-render").path
        let r = try BinaryLocator.run(bin, ["render", url, "--allow-http", "--eye", "0,0,0.6", "--size", "160x90", "--out", dir + "/o.png"],
                                      environment: env)
        #expect(r.status == 0 && r.stderr.contains("3000 primitives"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: xdg + "/splatframe"), "render wrote under XDG_CACHE_HOME")
        // info keeps it in the cache; the second time the server answers 304.
        for _ in 0..<2 {
            let i = try BinaryLocator.run(bin, ["info", url, "--allow-http"], environment: env)
            #expect(i.status == 0 && i.stdout.contains("3000 splats") && i.stdout.contains(url), "\(i.stdout)\(i.stderr)")
        }
        #expect(server.requests("/scene.ply").last?.headers["if-none-match"] == "\"e1\"")
        let entries = try FileManager.default.contentsOfDirectory(atPath: xdg + "/splatframe/downloads")
        #expect(entries.count == 1)
        // Failures: one line each.
        for (args, mentions) in [(["render", url, "--eye", "0,0,0.6", "--out", dir + "/x.png"], "--allow-http"),
                                 (["render", server.url("/missing.spz"), "--allow-http", "--eye", "0,0,0.6", "--out", dir + "/x.png"], "404"),
                                 (["info", url, "--allow-http", "--max-download-mb", "0"], "--max-download-mb"),
                                 // The library reports the size and the limit; the command names the flag.
                                 (["info", server.url("/big.ply"), "--allow-http", "--max-download-mb", "1"], "over the 1 MB limit (--max-download-mb)")] {
            let f = try BinaryLocator.run(bin, args, environment: env)
            #expect(f.status == 2 && f.stderr.contains(mentions) && f.stderr.split(separator: "\n").count == 1, "\(args): \(f.stderr)")
        }
    }

    @Test func aURLDroppedOnTheWindowOpens() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/dropped.ply", .file(try Self.capture(2000), etag: nil, lastModified: nil))
        let url = server.url("/dropped.ply")
        let w = try RunningWindow(["cube", "--size", "640x360", "--screen-mm", "600,340", "--eye", "0,0,0.6", "--allow-http",
                                   "--test-drop", "3:\(url)"])
        _ = try w.windowID()
        #expect(w.waitFor(60) { w.stderr.contains("opened \(url)") }, "\(w.stderr)")
        _ = try w.finish()
    }

    @Test func aFeedInTheLibraryOpensItsScene() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/a.ply", .file(try Self.capture(1500), etag: "\"a\"", lastModified: nil))
        let dir = TestData.temporaryDirectory("feed").path
        let picture = RGBAImage(width: 32, height: 18, fill: PackedColor.pack(r: 200, g: 40, b: 160))
        try ImageFile.savePNG(picture, to: dir + "/a.png")
        server.route("/a.png", .file(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))), etag: nil, lastModified: nil))
        server.route("/feed.json", .file(Array(#"[{"name":"A blob","url":"a.ply","thumbnail":"a.png"},{"name":"Gone","url":"/gone.spz"}]"#.utf8),
                                         etag: nil, lastModified: nil))
        let cache = TestData.temporaryDirectory("feed-cache").path
        let w = try RunningWindow(["library", server.url("/feed.json"), "--allow-http", "--size", "640x360", "--screen-mm", "600,340",
                                   "--eye", "0,0,0.6"], environment: ["XDG_CACHE_HOME": cache])
        _ = try w.windowID()
        #expect(w.waitFor(60) { w.stderr.contains("thumbnails ready (2 rendered, 0 from the cache, 0 failed)") }, "\(w.stderr)")
        #expect(server.requests("/a.ply").isEmpty, "a scene was downloaded before it was chosen")
        _ = try w.xdotool(["key", "Return"])
        #expect(w.waitFor(60) { w.stderr.contains("opened \(server.url("/a.ply"))") }, "\(w.stderr)")
        _ = try w.finish()
    }
}
