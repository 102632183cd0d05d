// The real window under Xvfb, driven with real X input (xdotool): help, screenshot, drop,
// screen calibration, and a window move that shifts the view by the predicted amount.
import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing
import Workers

/// A running window process on an Xvfb server, with its stderr captured.
final class RunningWindow: @unchecked Sendable {
    let server: XvfbServer
    let process: ChildProcess
    let environment: [String: String]
    private let lock = NSLock()
    private var errText = ""
    private var errClosed = false

    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        server = try XvfbServer()
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        for (k, v) in extra { env[k] = v }
        environment = BinaryLocator.hermetic(env)
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let err = try ChildProcess.makePipe()
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        do {
            process = try ChildProcess.spawn(binary, arguments, environment: environment, stdout: devNull >= 0 ? devNull : nil, stderr: err.write)
        } catch { close(err.read); close(err.write); throw error }
        close(err.write)
        // A thread reads stderr to its end: the process (and every copy of its stderr) is gone.
        let reader = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(err.read, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                guard let self else { continue }
                self.lock.lock(); self.errText += String(decoding: buffer[0..<n], as: UTF8.self); self.lock.unlock()
            }
            close(err.read)
            if let self { self.lock.lock(); self.errClosed = true; self.lock.unlock() }
        }
        reader.start()
    }

    /// What the window wrote on stderr so far.
    var stderr: String { lock.lock(); defer { lock.unlock() }; return errText }

    /// Whether stderr reached its end (the process exited and everything it wrote was read).
    private var stderrClosed: Bool { lock.lock(); defer { lock.unlock() }; return errClosed }

    /// Polls `condition` every 0.2 s for up to `seconds` (× SPLATFRAME_TEST_TIME_SCALE); true when it held.
    @discardableResult
    func waitFor(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        try Wait.until(timeout: seconds, poll: 0.2, condition)
    }

    /// Waits for the launcher's start-up line ("splatframe: <screen>, head <source>"), written
    /// once the window is open, just before the scene is built and the frame loop starts.
    @discardableResult
    func waitForStartup(_ seconds: Double = 60) -> Bool {
        waitFor(seconds) { self.stderr.contains(", head ") }
    }

    /// Waits until the frame loop has been drawing the scene for a while: the window's title
    /// gains the frame rate ("… fps"), set once frames have been presented for a second.
    @discardableResult
    func waitForFrames(_ id: String, _ seconds: Double = 60) -> Bool {
        waitFor(seconds) { ((try? self.xdotool(["getwindowname", id])) ?? "").contains(" fps") }
    }

    deinit { process.kill(); _ = process.wait() }

    func xdotool(_ args: [String]) throws -> String {
        let tool = try #require(WindowTests.which("xdotool"), "xdotool is missing: `make test` installs it")
        return try BinaryLocator.run(tool, args, environment: environment).stdout
    }

    /// The window's X id (found by its class: xdotool matches names only in its own locale, and
    /// the title follows the user's), waiting for it to appear for as long as the process runs (the suite
    /// runs many processes at once, so a window can take a while on a loaded machine); a
    /// process that exits first fails at once, with what it wrote (one that cannot reach the
    /// server exits: SDL's screenless fallback is refused). The deadline (10 minutes) only
    /// catches a window that never comes.
    func windowID(_ seconds: Double = 600) throws -> String {
        var found: String?
        try waitFor(seconds) {
            found = try self.xdotool(["search", "--onlyvisible", "--class", "splatframe"]).split(separator: "\n").first.map(String.init)
            return found != nil || !self.process.isRunning
        }
        guard let id = found else { throw WindowTestError.noWindow(stderr) }
        _ = try xdotool(["windowfocus", "--sync", id])   // no window manager: give it the keyboard
        return id
    }

    func screenshot() throws -> RGBAImage {
        let tool = try #require(WindowTests.which("import"), "ImageMagick's import is missing")
        let path = TestData.temporaryDirectory("shot").appendingPathComponent("s.png").path
        _ = try BinaryLocator.run(tool, ["-display", server.display, "-window", "root", path], environment: environment)
        return try ImageFile.load(path)
    }

    /// Quits with q and returns stderr (waiting up to 60 s for the exit: a loaded machine can be
    /// slow to deliver the key and join the window's threads).
    func finish() throws -> String {
        if process.isRunning { _ = try? xdotool(["key", "q"]) }
        Wait.until(timeout: 60, poll: 0.05) { !self.process.isRunning }
        process.kill()
        _ = process.wait()
        // Everything written before the exit is read once stderr reports its end.
        Wait.until(timeout: 10, poll: 0.01) { self.stderrClosed }
        return stderr
    }
}

/// Why a window test could not start.
enum WindowTestError: Error, CustomStringConvertible {
    /// No window appeared; the process's stderr so far.
    case noWindow(String)
    var description: String {
        switch self { case .noWindow(let log): "no SplatFrame window appeared; the process wrote: \(log)" }
    }
}

/// Mean brightness of a rectangle of an image (0…255).
func brightness(_ img: RGBAImage, x0: Int, y0: Int, x1: Int, y1: Int) -> Double {
    var sum = 0.0, n = 0.0
    for y in y0..<y1 { for x in x0..<x1 {
        let c = PackedColor.channels(img.pixels[y * img.width + x]); sum += Double(Int(c[0]) + Int(c[1]) + Int(c[2])) / 3; n += 1
    } }
    return sum / max(1, n)
}

/// Of the pixels of a rectangle lit in `a` (brightness > 40), the fraction at most 60 % as
/// bright in `b` (a panel darkening them; text drawn over some of them brightens those).
func darkened(from a: RGBAImage, to b: RGBAImage, x0: Int, y0: Int, x1: Int, y1: Int) -> Double {
    guard a.width == b.width, a.height == b.height else { return 0 }
    func lum(_ p: UInt32) -> Double { let c = PackedColor.channels(p); return Double(Int(c[0]) + Int(c[1]) + Int(c[2])) / 3 }
    var lit = 0.0, darker = 0.0
    for y in y0..<y1 { for x in x0..<x1 {
        let la = lum(a.pixels[y * a.width + x])
        guard la > 40 else { continue }
        lit += 1
        if lum(b.pixels[y * b.width + x]) < la * 0.6 { darker += 1 }
    } }
    return lit == 0 ? 0 : darker / lit
}

@Suite("window interaction under Xvfb", .serialized)
struct WindowInteractionTests {
    @Test func helpOverlayScreenshotAndDrop() throws {
        let pictures = TestData.temporaryDirectory("pictures").path
        let dropped = TestData.temporaryDirectory("drop").appendingPathComponent("dropped.ply").path
        let gen = try BinaryLocator.run(try #require(BinaryLocator.splatframe()), ["generate", "2000", dropped])
        try #require(gen.status == 0, "\(gen.stderr)")
        // Small: the tests may run a debug build of the binary.
        let w = try RunningWindow(["cube", "--size", "640x360", "--screen-mm", "600,340", "--eye", "0,0,0.6",
                                   "--test-drop", "3:\(dropped)"], environment: ["XDG_PICTURES_DIR": pictures])
        _ = try w.windowID()
        // The dropped file opens (pushed through SDL's own event queue at frame 3).
        #expect(w.waitFor(30) { w.stderr.contains("opened \(dropped)") }, "\(w.stderr)")
        func middle() throws -> Double { brightness(try w.screenshot(), x0: 500, y0: 340, x1: 780, y1: 380) }
        var before = 0.0
        var beforeShot = RGBAImage(width: 1, height: 1, fill: 0)
        _ = try w.waitFor(10) { beforeShot = try w.screenshot(); before = brightness(beforeShot, x0: 500, y0: 340, x1: 780, y1: 380); return before > 30 }
        _ = try w.xdotool(["key", "F1"])
        // The help panel darkens the middle of the frame: most of its lit pixels that no line of
        // text covers (whatever the number of lines, and so where they fall).
        #expect(try w.waitFor(10) { darkened(from: beforeShot, to: try w.screenshot(), x0: 500, y0: 340, x1: 780, y1: 380) > 0.5 },
                "no help overlay")
        _ = try w.xdotool(["key", "F1"])
        _ = try w.xdotool(["key", "F12"])
        var files: [String] = []
        w.waitFor(30) {
            files = ((try? FileManager.default.contentsOfDirectory(atPath: pictures + "/splatframe")) ?? []).filter { !$0.hasPrefix(".") }
            return !files.isEmpty
        }
        let shot = try #require(files.first, "F12 wrote no screenshot under \(pictures)/splatframe")
        let saved = try ImageFile.load(pictures + "/splatframe/" + shot)
        #expect(saved.width == 640 && saved.height == 360)
        _ = try w.finish()
    }

    @Test func screenCalibrationSavesTheCardSize() throws {
        let config = TestData.temporaryDirectory("cardcal").appendingPathComponent("config.json").path
        let w = try RunningWindow(["calibrate", "--size", "1280x720", "--config", config, "--screen-mm", "600,340"])
        _ = try w.windowID()
        // The card outline draws no frame counter; the closest observable sign that the window
        // is about to take keys is the launcher's start-up line (the calibration starts right
        // after it, before the loop reads the keys queued for the window).
        #expect(w.waitForStartup(), "\(w.stderr)")
        _ = try w.xdotool(["key", "Up", "Up", "Return"])
        let log = try w.finish()
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Double]
        // Two 1 % steps up from a 600 mm estimate: the card looks bigger, so the screen is smaller.
        let width = try #require(saved?["screenWidthMM"], "\(log)")
        #expect(abs(width - 600 / 1.0201) < 1, "\(width)")
        #expect(abs((saved?["screenHeightMM"] ?? 0) - width * 720 / 1280) < 1)
    }

    @Test func movingTheWindowShiftsTheViewByThePredictedAmount() throws {
        // Render the same views headless: the left and right top quarters of the whole-screen picture.
        let binary = try #require(BinaryLocator.splatframe())
        let full = TestData.temporaryDirectory("move").appendingPathComponent("full.png").path
        let r = try BinaryLocator.run(binary, ["render", "--eye", "0,0,0.6", "--size", "1280x720", "--screen-mm", "600,340", "--out", full])
        try #require(r.status == 0, "\(r.stderr)")
        let whole = try ImageFile.load(full)
        func crop(_ img: RGBAImage, x: Int) -> RGBAImage {
            RGBAImage(width: 640, height: 360, pixels: (0..<360).flatMap { y in img.pixels[(y * img.width + x)..<(y * img.width + x + 640)] })
        }
        // The HUD covers the top rows of the window: compare below it.
        func body(_ img: RGBAImage) -> RGBAImage { RGBAImage(width: 640, height: 220, pixels: Array(img.pixels[(140 * 640)...])) }

        let w = try RunningWindow(["cube", "--size", "640x360", "--screen-mm", "600,340", "--eye", "0,0,0.6"])
        let id = try w.windowID()
        // The frame loop is running (and so reading X events every frame) before anything moves;
        // the title shows its frame rate (a title SDL could not hand to X11 stayed "SplatFrame").
        #expect(w.waitForFrames(id), "the window's title never showed the frame rate")
        /// Whether the X server has the window at (x, y).
        func windowAt(_ x: Int, _ y: Int) -> Bool {
            guard let g = try? w.xdotool(["getwindowgeometry", id]), let p = LibraryWindowTests.position(g) else { return false }
            return p.x == x && p.y == y
        }
        /// Screenshots until the window's part of the screen shows the headless view for the window
        /// at `x` (the view follows the move once the loop has seen it), or the deadline passes.
        func shownView(atX x: Int) throws -> ImageComparison {
            let expected = body(crop(whole, x: x))
            var c = ImageComparison(RGBAImage(width: 1, height: 1, fill: 0), expected)
            try w.waitFor(30) {
                c = ImageComparison(body(crop(try w.screenshot(), x: x)), expected)
                return c.psnr >= 30
            }
            return c
        }
        // Without a window manager SDL misses the first external move: make one first. Nothing
        // shows when SDL has taken it in; the closest observable condition is the X server having
        // moved the window (the loop then reads that move before the ones below, in order).
        _ = try w.xdotool(["windowmove", id, "5", "5"])
        w.waitFor(30) { windowAt(5, 5) }
        _ = try w.xdotool(["windowmove", id, "0", "0"])
        let left = try shownView(atX: 0)
        _ = try w.xdotool(["windowmove", id, "640", "0"])
        let right = try shownView(atX: 640)
        _ = try w.finish()
        #expect(left.psnr >= 30, "window at the left: \(left)")
        #expect(right.psnr >= 30, "window moved right by half the display: \(right)")
    }
}
