import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

/// Starts a real X server (Xvfb), opens the real window, and looks at a screenshot.
@Suite("Window under Xvfb", .serialized)
struct WindowTests {
    static func which(_ tool: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        return nil
    }

    /// SDL falls back to a screenless driver when no display answers; the window must not run
    /// unseen there (a test waiting for it would wait forever) but stop with one line.
    @Test func aDisplayNoServerAnswersIsAOneLineError() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let free = try #require((900..<2000).first { n in
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") && !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock")
        }, "every display from :900 to :1999 is taken")
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = ":\(free)"; env["WAYLAND_DISPLAY"] = nil
        // A desktop session has a runtime folder; without one libwayland prints a line of its own.
        env["XDG_RUNTIME_DIR"] = TestData.temporaryDirectory("runtime").path
        let environment = BinaryLocator.hermetic(env)
        let run = Wait.returns(within: 120) {
            try BinaryLocator.run(binary, ["cube", "--frames", "30", "--size", "320x180"], environment: environment)
        }
        let r = try #require(try run?.get(), "the window hung with DISPLAY=:\(free) and no server there")
        let errors = r.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(r.status == 2 && errors.count == 1 && errors[0].contains("DISPLAY=:\(free)"), "\(r.stderr)")
    }

    @Test("the cube room appears in the window with its five walls in perspective")
    func cubeRoomScreenshot() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let importTool = try #require(Self.which("import"), "ImageMagick's import is missing: `make test` installs imagemagick")
        let server = try XvfbServer()
        defer { withExtendedLifetime(server) {} }
        let display = server.display

        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        let app = Process()
        app.executableURL = URL(fileURLWithPath: binary)
        app.arguments = ["cube", "--size", "1280x720", "--screen-mm", "600,340"]
        app.environment = BinaryLocator.hermetic(env)
        let err = Pipe()
        app.standardError = err
        try app.run()
        defer { if app.isRunning { app.terminate() } }

        // Take screenshots until the room is there (the generous deadline only catches a window
        // that never shows it), or the window exits.
        let shot = TestData.temporaryDirectory().appendingPathComponent("screen.png").path
        var image: RGBAImage?
        try Wait.until(timeout: 30, poll: 0.5) {
            guard app.isRunning else { return true }
            let r = try BinaryLocator.run(importTool, ["-display", display, "-window", "root", shot])
            if r.status == 0, let img = try? ImageFile.load(shot) {
                image = img
                if Self.roomVisible(img) { return true }
            }
            return false
        }
        let stillRunning = app.isRunning
        app.terminate()
        let quitOnSignal = Wait.until(timeout: 10, poll: 0.05) { !app.isRunning }
        if app.isRunning { kill(app.processIdentifier, SIGKILL) }
        app.waitUntilExit()
        #expect(quitOnSignal, "SIGTERM did not close the window")
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stillRunning, "the window exited early: \(log)")
        let img = try #require(image, "no screenshot could be taken; app log: \(log)")
        try? ImageFile.savePNG(img, to: TestData.projectRoot.appendingPathComponent(".build/window-screenshot.png").path)
        #expect(Self.roomVisible(img), "the screenshot (.build/window-screenshot.png) does not show the five walls")
        #expect(log.contains("screen 0.600×0.340 m (from flag)"), "\(log)")
    }

    /// The walls' generated pictures have distinct tints: back blue, left red, right green,
    /// ceiling yellow, floor purple. From the neutral eye with depth = width the back wall fills
    /// the middle half of the image; sample each wall away from the floating targets.
    static func roomVisible(_ img: RGBAImage) -> Bool {
        guard img.width == 1280, img.height == 720 else { return false }
        func average(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Vec4 {
            var s = Vec4.zero
            for y in y0..<y1 { for x in x0..<x1 { s += PackedColor.unpack(img[x, y]) } }
            return s / Float((x1 - x0) * (y1 - y0))
        }
        let back = average(600, 420, 700, 500)
        let left = average(40, 330, 140, 390)
        let right = average(1140, 330, 1240, 390)
        let top = average(560, 40, 720, 100)
        let bottom = average(560, 620, 720, 680)
        return back.z > back.x + 0.05 && left.x > left.z + 0.05 && left.x > left.y
            && right.y > right.x + 0.05 && right.y > right.z
            && top.x > top.z + 0.05 && top.y > top.z + 0.05
            && bottom.z > bottom.y + 0.05 && bottom.x > bottom.y
    }
}
