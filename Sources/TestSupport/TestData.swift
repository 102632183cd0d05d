import Foundation
import Testing

/// Locates the shared real-world test files (`../shared/testdata/` from the project root).
/// Tests that need them use `.enabled(if: TestData.isAvailable, TestData.skipMessage)`.
public enum TestData {
    /// The project root (the folder holding Package.swift), found from this source file.
    public static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// Multiplies the end-to-end tests' waiting limits (`SPLATFRAME_TEST_TIME_SCALE`, default 1):
    /// `make sanitize` runs the window ThreadSanitizer-built, several times slower.
    public static let timeScale: Double = {
        let v = Double(ProcessInfo.processInfo.environment["SPLATFRAME_TEST_TIME_SCALE"] ?? "") ?? 1
        return v >= 1 && v <= 100 ? v : 1
    }()

    /// `../shared/testdata` beside the project root (or `$SPLATFRAME_TESTDATA`).
    public static let root: URL = {
        if let env = ProcessInfo.processInfo.environment["SPLATFRAME_TESTDATA"] { return URL(fileURLWithPath: env) }
        return projectRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata")
    }()

    /// True when the shared test-data folder exists.
    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: root.path) }

    /// The reason shown when tests are skipped.
    public static let skipMessage: Comment = "skipped: ../shared/testdata is absent (real-world test files)"

    /// Absolute path of a file under the test-data folder, e.g. `path("splats/st-minimal.splat")`.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The folder holding this test process's temporary directories (`splatframe-tests-PID` in
    /// the system's temporary folder), removed with everything in it when the process exits, so
    /// test runs do not leave thousands of folders behind.
    public static let processFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splatframe-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestData.processFolder) }
        return url
    }()

    /// A fresh temporary directory for a test's output files (under `processFolder`).
    public static func temporaryDirectory(_ name: String = "splatframe-test") -> URL {
        let url = processFolder.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

