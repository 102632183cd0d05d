// The scene library's model: which files it finds, the thumbnail cache's keys, a second run
// served from the cache, a broken file shown as an error, the grid's geometry, default folders.
import Foundation
import Testing
import Procedural
import RenderCore
import SceneIO
import TestSupport
@testable import Viewer
@testable import Library

/// Library tests share temporary folders only with themselves.
@Suite("scene library")
struct LibraryTests {
    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A folder with a small generated splat file and the bundled room description.
    static func sceneFolder(_ name: String, splats: Int = 300) throws -> URL {
        let dir = TestData.temporaryDirectory(name)
        try SceneFile.save(.splats(SplatSceneGenerator.object(count: splats, shDegree: 0)), to: dir.appendingPathComponent("blob.ply").path)
        try FileManager.default.copyItem(atPath: TestData.projectRoot.appendingPathComponent("Scenes/cube.json").path,
                                         toPath: dir.appendingPathComponent("cube.json").path)
        return dir
    }

    /// Small and single-threaded: the tests may run in a debug build.
    static func library(_ dirs: [String], cache: String) -> SceneLibrary {
        SceneLibrary(entries: LibraryScanner.scan(dirs), cache: ThumbnailCache(directory: cache), width: 64, height: 36,
                     threads: 1, supersample: 1)
    }

    // MARK: discovery

    @Test func findsEveryFormatWeReadAndOneLevelOfSubfolders() throws {
        let d = TestData.temporaryDirectory("lib-scan").path
        for f in ["a.ply", "B.SPZ", "c.obj", "d.stl", "e.splat", "f.sog", "sub/g.ply", "sub/deeper/h.ply", "notes.txt", ".hidden.ply",
                  "sog/meta.json", "sog/means_l.webp", "streamed/lod-meta.json", "sub/inner-sog/meta.json"] {
            try Self.write("x", d + "/" + f)
        }
        try Self.write(#"{"type": "cube"}"#, d + "/room.json")
        try Self.write(#"{"width": 64, "height": 36}"#, d + "/camera.json")      // a camera JSON: not a scene
        try Self.write(#"{"up": "y", "type": "placement"}"#, d + "/a.ply.splatframe.json")   // a placement sidecar
        let entries = LibraryScanner.scan([d])
        #expect(entries.map(\.displayName) == ["a.ply", "B.SPZ", "c.obj", "d.stl", "e.splat", "f.sog", "room.json", "sog", "streamed",
                                               "sub/g.ply", "sub/inner-sog"])
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.displayName, $0) })
        #expect(byName["sog"]?.kind == .sogFolder && byName["streamed"]?.kind == .streamedSOG && byName["sub/inner-sog"]?.kind == .sogFolder)
        #expect(byName["room.json"]?.formatHint == "scene JSON" && byName["B.SPZ"]?.formatHint == "SPZ")
        #expect(entries.allSatisfy { $0.path.hasPrefix("/") && $0.modified > 0 })
        // A folder named twice, a file named directly, a SOG folder named directly, a missing path.
        let again = LibraryScanner.scan([d, d + "/", d + "/sub/g.ply", d + "/sog", d + "/nothing-here"])
        #expect(again.count == entries.count)
        #expect(LibraryScanner.scan([d + "/sub/deeper/h.ply", d + "/sog"]).map(\.kind) == [.file, .sogFolder])
        #expect(LibraryScanner.scan([d + "/notes.txt"]).isEmpty)
    }

    @Test func theBundledScenesAreFound() throws {
        let scenes = try #require(LibraryFolders.bundledScenes(), "no Scenes/ found from the test binary")
        #expect(scenes == TestData.projectRoot.appendingPathComponent("Scenes").standardizedFileURL.resolvingSymlinksInPath().path)
        let names = LibraryScanner.scan([scenes]).map(\.displayName)
        // The placement sidecar beside demo-object.ply is not a scene.
        #expect(names == ["cube-photos.json", "cube.json", "demo-object.ply", "mixed.json"])
    }

    @Test func defaultFoldersFollowXDG() throws {
        // A project tree: the executable's ancestors hold Package.swift and Scenes/ (SwiftPM's layout).
        let root = TestData.temporaryDirectory("lib-root").path
        try Self.write("", root + "/Package.swift")
        try Self.write(#"{"type": "cube"}"#, root + "/Scenes/cube.json")
        try Self.write("", root + "/.build/x86_64-unknown-linux-gnu/release/splatframe")
        #expect(LibraryFolders.bundledScenes(executable: root + "/.build/x86_64-unknown-linux-gnu/release/splatframe") == root + "/Scenes")
        // An installed layout: bin/ beside share/splatframe/Scenes.
        let prefix = TestData.temporaryDirectory("lib-prefix").path
        try Self.write("", prefix + "/bin/splatframe")
        try Self.write(#"{"type": "cube"}"#, prefix + "/share/splatframe/Scenes/cube.json")
        #expect(LibraryFolders.bundledScenes(executable: prefix + "/bin/splatframe") == prefix + "/share/splatframe/Scenes")

        let data = TestData.temporaryDirectory("lib-data").path
        let env = ["XDG_DATA_HOME": data, "XDG_CACHE_HOME": "/c", "HOME": "/h"]
        #expect(LibraryFolders.thumbnailCache(environment: env) == "/c/splatframe/thumbnails")
        #expect(LibraryFolders.thumbnailCache(environment: ["HOME": "/h"]) == "/h/.cache/splatframe/thumbnails")
        #expect(LibraryFolders.userData(environment: ["HOME": "/h"]) == "/h/.local/share/splatframe")
        // The data folder is listed once it exists.
        let exe = root + "/.build/x86_64-unknown-linux-gnu/release/splatframe"
        #expect(LibraryFolders.defaults(environment: env, executable: exe) == [root + "/Scenes"])
        try FileManager.default.createDirectory(atPath: data + "/splatframe", withIntermediateDirectories: true)
        #expect(LibraryFolders.defaults(environment: env, executable: exe) == [root + "/Scenes", data + "/splatframe"])
    }

    // MARK: cache

    @Test func cacheKeysChangeWithPathSizeAndModificationTime() throws {
        let d = TestData.temporaryDirectory("lib-key").path
        try Self.write("one", d + "/a.ply")
        try Self.write("one", d + "/b.ply")
        func entry(_ p: String) throws -> LibraryEntry { try #require(LibraryEntry.stamped(path: p, displayName: "x", kind: .file)) }
        let a = try entry(d + "/a.ply")
        let key = ThumbnailCache.key(for: a, width: 256, height: 144)
        #expect(key.count == 16 && key.allSatisfy(\.isHexDigit))
        #expect(ThumbnailCache.key(for: try entry(d + "/a.ply"), width: 256, height: 144) == key, "same file, same key")
        #expect(ThumbnailCache.key(for: try entry(d + "/b.ply"), width: 256, height: 144) != key, "another path")
        #expect(ThumbnailCache.key(for: a, width: 128, height: 72) != key, "another thumbnail size")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: d + "/a.ply")
        #expect(ThumbnailCache.key(for: try entry(d + "/a.ply"), width: 256, height: 144) != key, "touched")
        // A SOG folder changes when a file inside it does.
        try Self.write("{}", d + "/sog/meta.json")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: d + "/sog/meta.json")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: d + "/sog")
        let sog = try #require(LibraryEntry.stamped(path: d + "/sog", displayName: "sog", kind: .sogFolder))
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: d + "/sog/meta.json")
        let sog2 = try #require(LibraryEntry.stamped(path: d + "/sog", displayName: "sog", kind: .sogFolder))
        #expect(ThumbnailCache.key(for: sog, width: 256, height: 144) != ThumbnailCache.key(for: sog2, width: 256, height: 144))
    }

    @Test func aSecondRunIsServedFromTheCacheWithoutRendering() throws {
        let dir = try Self.sceneFolder("lib-cache")
        let cache = TestData.temporaryDirectory("lib-cache-thumbs").path
        let first = Self.library([dir.path], cache: cache)
        #expect(first.entries.map(\.displayName) == ["blob.ply", "cube.json"])
        first.start()
        #expect(Wait.until(timeout: 120) { first.progress.finished })
        #expect(first.progress.rendered == 2 && first.progress.cacheHits == 0 && first.progress.failed == 0, "\(first.progress)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        #expect(files.filter { $0.hasSuffix(".png") }.count == 2 && files.filter { $0.hasSuffix(".json") }.count == 2, "\(files)")
        guard case .ready(let image, let info) = first.thumbnail(0) else {
            Issue.record("blob.ply: \(first.thumbnail(0))"); return
        }
        #expect(image.width == 64 && image.height == 36)
        #expect(info == LibraryItemInfo(format: "PLY", kind: "splats", count: 300))
        #expect(info.summary == "PLY · 300 splats")
        // Something was drawn: not all one colour.
        #expect(Set(image.pixels).count > 10)
        guard case .ready(_, let roomInfo) = first.thumbnail(1) else { Issue.record("cube.json: \(first.thumbnail(1))"); return }
        #expect(roomInfo.format == "scene JSON" && roomInfo.kind == "triangles" && roomInfo.count > 0)

        let second = Self.library([dir.path], cache: cache)
        second.start()
        #expect(Wait.until(timeout: 60) { second.progress.finished })
        #expect(second.progress.rendered == 0 && second.progress.cacheHits == 2, "\(second.progress)")
        #expect(second.snapshot().thumbnails == first.snapshot().thumbnails)

        // A changed file is rendered again; the other still comes from the cache.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: dir.appendingPathComponent("cube.json").path)
        let third = Self.library([dir.path], cache: cache)
        third.start()
        #expect(Wait.until(timeout: 60) { third.progress.finished })
        #expect(third.progress.rendered == 1 && third.progress.cacheHits == 1, "\(third.progress)")
    }

    @Test func aBrokenFileBecomesAnErrorCellAndTheRestGoOn() throws {
        let dir = try Self.sceneFolder("lib-broken")
        let broken = dir.appendingPathComponent("broken.ply").path
        try Self.write("ply\nformat ascii 1.0\nelement vertex 2\nend_header\n1 2\n", broken)
        try Self.write(#"{"type": "tetrahedron"}"#, dir.appendingPathComponent("odd.json").path)
        let cache = TestData.temporaryDirectory("lib-broken-thumbs").path
        let library = Self.library([dir.path], cache: cache)
        #expect(library.entries.map(\.displayName) == ["blob.ply", "broken.ply", "cube.json", "odd.json"])
        library.start()
        #expect(Wait.until(timeout: 120) { library.progress.finished })
        let p = library.progress
        #expect(p.done == 4 && p.failed == 2 && p.rendered == 2 && p.fraction == 1, "\(p)")
        guard case .failed(let reason) = library.thumbnail(1) else { Issue.record("\(library.thumbnail(1))"); return }
        #expect(reason.contains("broken.ply") && !reason.contains("\n"), "\(reason)")
        guard case .failed(let odd) = library.thumbnail(3) else { Issue.record("\(library.thumbnail(3))"); return }
        #expect(odd.contains("type: expected \"cube\""), "\(odd)")
        if case .ready = library.thumbnail(2) {} else { Issue.record("cube.json: \(library.thumbnail(2))") }
        // Errors are not cached: only the two good thumbnails are on disk.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".png") }.count == 2)
    }

    @Test func thePrioritisedSceneIsRenderedFirstAndPausingHolds() throws {
        let dir = try Self.sceneFolder("lib-priority")
        let library = SceneLibrary(entries: LibraryScanner.scan([dir.path]), cache: nil, width: 32, height: 18, threads: 1, supersample: 1)
        library.pause()
        library.prioritize(1)
        library.start()
        // Nothing observable marks "the background thread has reached the pause", so this waits
        // for the closest observable thing, any change of the library's state (a thumbnail
        // starting to load bumps the snapshot's version), which a paused library never makes.
        // The wait is expected to run out: a slow machine can only make the check weaker (the
        // thread may not have run yet), never make it fail.
        let changedWhilePaused = Wait.until(timeout: 0.3, poll: 0.005) { library.snapshot().version != 0 }
        #expect(!changedWhilePaused && library.progress.done == 0, "paused: \(library.snapshot().thumbnails)")
        library.resume()
        // The first thumbnail to appear is the prioritised one.
        var first: Int?
        Wait.until(timeout: 60, poll: 0.002) {
            let t = library.snapshot().thumbnails
            if case .ready = t[1] { first = 1 } else if case .ready = t[0] { first = 0 }
            return first != nil
        }
        #expect(first == 1)
        #expect(Wait.until(timeout: 60) { library.progress.finished })
    }

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func aSOGFolderGetsAThumbnail() throws {
        let sog = TestData.path("splats/sog/playcanvas-logo")
        let library = SceneLibrary(entries: LibraryScanner.scan([sog]), cache: nil, width: 64, height: 36, threads: 1, supersample: 1)
        #expect(library.entries.map(\.kind) == [.sogFolder])
        library.start()
        // Decoding and drawing the 30,000-splat SOG takes ~250 s in the AddressSanitizer build on
        // its own, and the deadline only catches a hang: generous enough for a loaded sanitizer run.
        #expect(Wait.until(timeout: 600) { library.progress.finished })
        guard case .ready(_, let info) = library.thumbnail(0) else { Issue.record("\(library.thumbnail(0))"); return }
        #expect(info.format == "SOG" && info.kind == "splats" && info.count > 30_000)
    }

    // MARK: grid

    @Test func gridGeometry() {
        let l = LibraryGridLayout(width: 640, height: 360, thumbnail: (256, 144), lineHeight: 18, count: 5)
        #expect(l.columns == 2 && l.rows == 3)
        #expect(l.thumbnailRect(0, firstRow: 0) == .init(x: 56, y: 56, width: 256, height: 144))
        #expect(l.thumbnailRect(1, firstRow: 0).x == 328)
        #expect(l.hit(x: 60, y: 60, firstRow: 0) == 0 && l.hit(x: 330, y: 199, firstRow: 0) == 1)
        #expect(l.hit(x: 320, y: 60, firstRow: 0) == nil, "the gap")
        #expect(l.hit(x: 60, y: 20, firstRow: 0) == nil, "the header")
        #expect(l.hit(x: 60, y: 60, firstRow: 1) == 2)
        #expect(l.moved(0, .right) == 1 && l.moved(0, .left) == 0 && l.moved(1, .down) == 3 && l.moved(3, .down) == 4)
        #expect(l.moved(4, .down) == 4 && l.moved(4, .right) == 4 && l.moved(1, .up) == 1 && l.moved(3, .up) == 1)
        #expect(l.moved(2, .end) == 4 && l.moved(4, .home) == 0)
        // One row fits: showing cell 4 (row 2) scrolls to row 2; back at cell 0 scrolls to the top.
        #expect(l.visibleRows == 1)
        #expect(l.firstRow(showing: 4, current: 0) == 2 && l.firstRow(showing: 0, current: 2) == 0)
        // A window narrower than a thumbnail scales it down; there is always a column.
        let narrow = LibraryGridLayout(width: 200, height: 300, thumbnail: (256, 144), lineHeight: 18, count: 3)
        #expect(narrow.columns == 1 && narrow.thumbWidth == 168 && narrow.thumbHeight == 94)
        #expect(LibraryItemInfo.grouped(1_234_567) == "1,234,567" && LibraryItemInfo.grouped(999) == "999" && LibraryItemInfo.grouped(1000) == "1,000")
    }
}
