import Foundation

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

    /// Runs a command to completion (in a `hermetic` environment) and returns its exit code,
    /// stdout and stderr.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = hermetic(environment)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
