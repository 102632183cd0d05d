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

    @Test("the cube room appears in the window with its five walls in perspective")
    func cubeRoomScreenshot() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let xvfb = try #require(Self.which("Xvfb"), "Xvfb is missing: `make test` installs xvfb")
        let importTool = try #require(Self.which("import"), "ImageMagick's import is missing: `make test` installs imagemagick")
        let display = ":\(100 + Int.random(in: 0..<400))"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: xvfb)
        server.arguments = [display, "-screen", "0", "1280x720x24", "-nolisten", "tcp"]
        server.standardError = FileHandle.nullDevice
        try server.run()
        // The test runner blocks SIGTERM in its children, so stop the server with SIGKILL.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let socket = "/tmp/.X11-unix/X\(display.dropFirst())"
        Wait.until(poll: 0.05) { FileManager.default.fileExists(atPath: socket) }
        try #require(FileManager.default.fileExists(atPath: socket), "Xvfb did not start")

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
