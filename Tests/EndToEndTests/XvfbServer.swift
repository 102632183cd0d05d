// XvfbServer — a private X server (Xvfb) for one window test, on a display number it picked
// itself, killed when the test lets go of it.
import Foundation
import TestSupport
import Testing
import Workers

/// An Xvfb server for one test (killed on deinit). Xvfb picks a free display number itself
/// (-displayfd) and reports it once it accepts connections, so servers started at once by
/// parallel suites never share a number, and a socket left by a killed one is never mistaken
/// for a running server.
final class XvfbServer {
    let display: String
    private let process: ChildProcess

    init() throws {
        let xvfb = try #require(WindowTests.which("Xvfb"), "Xvfb is missing: `make test` installs xvfb")
        let out = try ChildProcess.makePipe()
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        do {
            process = try ChildProcess.spawn(xvfb, ["-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
                                             stdout: out.write, stderr: devNull >= 0 ? devNull : nil)
        } catch { close(out.read); close(out.write); throw error }
        close(out.write)
        // Its first line is the display number; end of file: it exited. The generous deadline
        // only catches a server that never starts.
        let reader = FileHandle(fileDescriptor: out.read, closeOnDealloc: true)
        let line = Wait.returns(within: 120) { () -> String in
            var text = ""
            while !text.contains("\n") {
                let d = reader.availableData
                if d.isEmpty { break }
                text += String(decoding: d, as: UTF8.self)
            }
            return text
        }
        let reported = ((try? line?.get()) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let n = Int(reported) else {
            process.kill()
            _ = process.wait()
            throw XvfbError.didNotStart(reported)
        }
        display = ":\(n)"
    }

    /// Stopped with SIGKILL (it has nothing to save).
    deinit { process.kill(); _ = process.wait() }

    /// Runs the window command to completion (it must stop by itself: pass --frames).
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        return try BinaryLocator.run(try #require(BinaryLocator.splatframe(), "build the package first"), arguments, environment: env)
    }
}

/// Why an Xvfb server could not be had.
enum XvfbError: Error, CustomStringConvertible {
    /// Xvfb exited or never reported its display number; what it wrote on its display fd.
    case didNotStart(String)
    var description: String {
        switch self { case .didNotStart(let t): "Xvfb did not start (it reported \"\(t)\" as its display)" }
    }
}
