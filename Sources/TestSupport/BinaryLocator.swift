import Foundation
import Workers

/// Finds the built `splatframe` executable for end-to-end tests.
public enum BinaryLocator {
    /// The newest of `.build/{debug,release}/splatframe`, or nil when neither exists.
    public static func splatframe() -> String? {
        var candidates: [String] = []
        if let dir = Bundle.main.executableURL?.deletingLastPathComponent().path { candidates.append("\(dir)/splatframe") }
        for config in ["debug", "release"] {
            candidates.append(TestData.projectRoot.appendingPathComponent(".build/\(config)/splatframe").path)
        }
        let existing = candidates.filter { FileManager.default.isExecutableFile(atPath: $0) }
        return existing.max { a, b in
            let da = (try? FileManager.default.attributesOfItem(atPath: a)[.modificationDate] as? Date) ?? .distantPast
            let db = (try? FileManager.default.attributesOfItem(atPath: b)[.modificationDate] as? Date) ?? .distantPast
            return da < db
        }
    }

    /// `environment` (default: this process's) with `XDG_CONFIG_HOME`, `XDG_CACHE_HOME`,
    /// `XDG_DATA_HOME` and `XDG_PICTURES_DIR` pointed at an empty folder unless already set by
    /// the caller, so that a binary run by a test never reads or writes the developer's own
    /// config, cache or pictures. The one thing kept is where the webcam tracker's downloaded
    /// MediaPipe files are (`SPLATFRAME_WEBCAM_DIR`, from the real cache): third-party files
    /// fetched by `make`, not the user's settings.
    public static func hermetic(_ environment: [String: String]? = nil) -> [String: String] {
        var env = environment ?? ProcessInfo.processInfo.environment
        // `make sanitize`: options for the sanitized binaries the tests start (not the test process).
        if let child = ProcessInfo.processInfo.environment["SPLATFRAME_CHILD_ASAN_OPTIONS"] { env["ASAN_OPTIONS"] = child }
        if env["SPLATFRAME_WEBCAM_DIR"] == nil {
            let real = ProcessInfo.processInfo.environment
            let cache = real["SPLATFRAME_CACHE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (real["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 + "/splatframe" })
                ?? ((real["HOME"] ?? NSHomeDirectory()) + "/.cache/splatframe")
            env["SPLATFRAME_WEBCAM_DIR"] = cache + "/webcam"
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("splatframe-test-home").path
        for (key, sub) in [("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data"),
                           ("XDG_PICTURES_DIR", "pictures")] where environment?[key] == nil {
            env[key] = base + "/" + sub
            try? FileManager.default.createDirectory(atPath: base + "/" + sub, withIntermediateDirectories: true)
        }
        return env
    }

    /// The longest `run` waits for a command by default (seconds, × `TestData.timeScale`): a
    /// deadline that only catches a hang, never a measure of speed.
    public static var defaultTimeLimit: Double { 900 * TestData.timeScale }

    /// A command `run` gave up on.
    public enum RunError: Error, CustomStringConvertible {
        /// Still running (or its output still open) after `seconds`: it was killed (SIGKILL).
        case timedOut(command: String, seconds: Double, stderr: String)

        public var description: String {
            switch self {
            case let .timedOut(command, seconds, stderr):
                let last = stderr.split(whereSeparator: \.isNewline).last.map { "; its last stderr line: \($0)" } ?? ""
                return "\(command) did not finish within \(String(format: "%g", seconds)) s and was killed\(last)"
            }
        }
    }

    /// Runs a command to completion (in a `hermetic` environment) and returns its exit code,
    /// stdout and stderr. Both pipes are read at once (a child that fills one while we wait on
    /// the other cannot stall), and a command still running after `timeLimit` seconds (default
    /// `defaultTimeLimit`) is killed: `RunError.timedOut`.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           timeLimit: Double? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        // posix_spawn, not Foundation's Process, which keeps every Process it ran alive (ChildProcess).
        let outPipe = try ChildProcess.makePipe()
        let errPipe: (read: Int32, write: Int32)
        do { errPipe = try ChildProcess.makePipe() } catch { close(outPipe.read); close(outPipe.write); throw error }
        defer { close(outPipe.read); close(errPipe.read) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable, arguments, environment: hermetic(environment), stdout: outPipe.write, stderr: errPipe.write)
        } catch {
            close(outPipe.write); close(errPipe.write); throw error
        }
        close(outPipe.write); close(errPipe.write)
        let limit = timeLimit ?? defaultTimeLimit
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(limit, 1e9)) * 1e9)
        let streams = readBoth(outPipe.read, errPipe.read, until: deadline)
        // Both pipes closed: the command is ending (or has left a child holding neither).
        let left = Double(deadline > DispatchTime.now().uptimeNanoseconds ? deadline - DispatchTime.now().uptimeNanoseconds : 0) / 1e9
        let ended = streams.ended ? child.wait(timeout: left) : nil
        let stdout = String(decoding: streams.output[0], as: UTF8.self), stderr = String(decoding: streams.output[1], as: UTF8.self)
        guard let ended else {
            child.kill()
            _ = child.wait()
            throw RunError.timedOut(command: ([(executable as NSString).lastPathComponent] + arguments).joined(separator: " "),
                                    seconds: limit, stderr: stderr)
        }
        return (ended.status, stdout, stderr)
    }

    /// Reads `a` and `b` until both end or `deadline` (`DispatchTime` nanoseconds) passes, with
    /// `poll`: one thread, neither pipe left to fill while the other is read.
    static func readBoth(_ a: Int32, _ b: Int32, until deadline: UInt64) -> (output: [[UInt8]], ended: Bool) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var output: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }) {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return (output, false) }
            let wait = Int32(min(1000, (deadline - now) / 1_000_000 + 1))
            let n = poll(&fds, nfds_t(fds.count), wait)
            if n < 0 && errno != EINTR { return (output, false) }
            guard n > 0 else { continue }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                if got > 0 {
                    output[i] += buffer[0..<got]
                } else if got == 0 || (errno != EINTR && errno != EAGAIN) {
                    fds[i].fd = -1   // ended (poll skips negative descriptors)
                }
            }
        }
        return (output, true)
    }
}
