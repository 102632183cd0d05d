// `splatframe library DIR` under Xvfb: thumbnails are rendered in the background and shown in
// the grid; a click opens the scene in the head-tracked window; Esc there comes back to the grid.
import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

@Suite("scene library under Xvfb", .serialized)
struct LibraryWindowTests {
    /// Thumbnail rectangles of a 640×360 window with 256×144 thumbnails (Viewer's
    /// `LibraryGridLayout`: two centred columns below a 56-pixel header).
    static let cells = [(x: 56, y: 56), (x: 328, y: 56)]

    @Test func thumbnailsAppearAndAClickOpensTheScene() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let dir = TestData.temporaryDirectory("library-e2e")
        let blob = dir.appendingPathComponent("blob.ply").path, room = dir.appendingPathComponent("cube.json").path
        let gen = try BinaryLocator.run(binary, ["generate", "2000", blob])
        try #require(gen.status == 0, "\(gen.stderr)")
        try FileManager.default.copyItem(atPath: TestData.projectRoot.appendingPathComponent("Scenes/cube.json").path, toPath: room)
        // A cache of its own: the thumbnails must be rendered, not found.
        let cache = TestData.temporaryDirectory("library-e2e-cache").path
        let w = try RunningWindow(["library", dir.path, "--size", "640x360", "--screen-mm", "600,340", "--eye", "0,0,0.6"],
                                  environment: ["XDG_CACHE_HOME": cache])
        let id = try w.windowID()
        #expect(w.waitFor(120) { w.stderr.contains("thumbnails ready (2 rendered, 0 from the cache, 0 failed)") }, "\(w.stderr)")
        let thumbs = cache + "/splatframe/thumbnails"
        let pngs = ((try? FileManager.default.contentsOfDirectory(atPath: thumbs)) ?? []).filter { $0.hasSuffix(".png") }
        try #require(pngs.count == 2, "cached thumbnails: \(pngs)")
        let cached = try pngs.map { try ImageFile.load(thumbs + "/" + $0) }

        let geometry = try w.xdotool(["getwindowgeometry", id])
        let origin = try #require(Self.position(geometry), "\(geometry)")
        /// The grid shows both thumbnails, each exactly as cached (not a placeholder).
        func gridShown() throws -> Bool {
            let shot = try w.screenshot()
            return Self.cells.allSatisfy { c in
                let crop = Self.crop(shot, x: origin.x + c.x, y: origin.y + c.y)
                return Set(crop.pixels).count > 20 && cached.contains { ImageComparison(crop, $0).psnr >= 40 }
            }
        }
        #expect(try w.waitFor(20) { try gridShown() }, "the grid does not show the cached thumbnails")
        try? ImageFile.savePNG(try w.screenshot(), to: TestData.projectRoot.appendingPathComponent(".build/library-screenshot.png").path)

        // A click on the second cell (cube.json: names sort "blob" < "cube") opens it.
        _ = try w.xdotool(["mousemove", "--window", id, "\(Self.cells[1].x + 128)", "\(Self.cells[1].y + 72)", "click", "1"])
        #expect(w.waitFor(60) { w.stderr.contains("opened \(room)") }, "\(w.stderr)")
        // Esc leaves the scene and the grid comes back, its thumbnails at once.
        let scene = try Self.sceneWindow(w)
        // Let the scene be drawn before leaving it: its frames put the frame rate in the title.
        // Only a wait (the grid coming back is what is checked).
        w.waitForFrames(scene)
        _ = try w.xdotool(["windowfocus", "--sync", scene])
        _ = try w.xdotool(["key", "Escape"])
        let back = try w.waitFor(30) { try gridShown() }
        #expect(back, "the grid did not come back after Esc: \(w.stderr)")
        _ = try w.windowID()
        let log = try w.finish()
        #expect(w.process.wait()?.status == 0, "\(log)")
    }

    @Test func theLKeyShowsTheLibraryInAnyWindow() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        // The user's data folder holds one scene; it comes after the bundled Scenes/.
        let data = TestData.temporaryDirectory("library-e2e-data")
        let blob = data.appendingPathComponent("splatframe/blob.ply").path
        try FileManager.default.createDirectory(atPath: (blob as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let gen = try BinaryLocator.run(binary, ["generate", "500", blob])
        try #require(gen.status == 0, "\(gen.stderr)")
        let w = try RunningWindow(["cube", "--size", "640x360", "--screen-mm", "600,340", "--eye", "0,0,0.6"],
                                  environment: ["XDG_DATA_HOME": data.path, "XDG_CACHE_HOME": TestData.temporaryDirectory("library-e2e-cache").path])
        let id = try w.windowID()
        // The cube is being drawn (its frames put the frame rate in the title) before l is pressed.
        // Only a wait: the library appearing is what is checked.
        w.waitForFrames(id)
        _ = try w.xdotool(["key", "l"])
        #expect(w.waitFor(120) { w.stderr.contains("library: thumbnails ready") }, "\(w.stderr)")
        #expect(w.stderr.contains("scenes in \(TestData.projectRoot.appendingPathComponent("Scenes").path), \(data.path)/splatframe"), "\(w.stderr)")
        // The last cell is the data folder's scene.
        _ = try w.xdotool(["key", "End", "Return"])
        #expect(w.waitFor(60) { w.stderr.contains("opened \(blob)") }, "\(w.stderr)")
        let log = try w.finish()
        #expect(w.process.wait()?.status == 0, "\(log)")
    }

    /// The window showing the scene: the one not titled as the grid (when the scene has a window
    /// of its own), else the only one.
    static func sceneWindow(_ w: RunningWindow) throws -> String {
        let ids = try w.xdotool(["search", "--onlyvisible", "--class", "splatframe"]).split(separator: "\n").map(String.init)
        for id in ids where !(try w.xdotool(["getwindowname", id])).contains("scene library") { return id }
        return try #require(ids.first, "no window")
    }

    /// "Position: X,Y (screen: 0)" from `xdotool getwindowgeometry`.
    static func position(_ text: String) -> (x: Int, y: Int)? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Position:") }) else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }

    static func crop(_ img: RGBAImage, x: Int, y: Int, width: Int = 256, height: Int = 144) -> RGBAImage {
        guard x >= 0, y >= 0, x + width <= img.width, y + height <= img.height else { return RGBAImage(width: 1, height: 1, fill: 0) }
        return RGBAImage(width: width, height: height,
                         pixels: (y..<(y + height)).flatMap { r in img.pixels[(r * img.width + x)..<(r * img.width + x + width)] })
    }
}
