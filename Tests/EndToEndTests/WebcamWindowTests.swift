// The webcam tracker in the real window (under Xvfb) and from the command line.
import Foundation
import TestSupport
import Testing

/// An Xvfb server for one test (killed on deinit). Xvfb picks a free display number itself
/// (-displayfd) and reports it once it accepts connections, so servers started at once by
/// parallel suites never share a number, and a socket left by a killed one is never mistaken
/// for a running server.
final class XvfbServer {
    let display: String
    private let process = Process()

    init() throws {
        let xvfb = try #require(WindowTests.which("Xvfb"), "Xvfb is missing: `make test` installs xvfb")
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: xvfb)
        process.arguments = ["-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp"]
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let number = LockedText()
        out.fileHandleForReading.readabilityHandler = { h in
            let d = h.availableData
            if d.isEmpty { h.readabilityHandler = nil } else { number.append(String(decoding: d, as: UTF8.self)) }
        }
        // The generous deadline only catches a server that never starts (or exits at once).
        let server = process
        Wait.until(timeout: 120, poll: 0.02) { number.text.contains("\n") || !server.isRunning }
        out.fileHandleForReading.readabilityHandler = nil
        let reported = number.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let n = Int(reported) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw XvfbError.didNotStart(reported)
        }
        display = ":\(n)"
    }

    deinit { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }

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

/// Text appended from one thread and read from another.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func append(_ s: String) { lock.lock(); value += s; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return value }
}

@Suite("webcam tracker in the window", .serialized)
struct WebcamWindowTests {
    static let video = TestData.path("video/Megamind.avi")

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func aRecordedFaceDrivesTheWindow() throws {
        let x = try XvfbServer()
        let r = try x.run(["cube", "--head", "video:\(Self.video)", "--frames", "90", "--size", "320x180"])
        #expect(r.status == 0, "\(r.stderr)")
        let dir = BinaryLocator.hermetic()["SPLATFRAME_WEBCAM_DIR"] ?? ""
        let has = { FileManager.default.fileExists(atPath: dir + "/" + $0) }
        let backend = has("libmediapipe.so") ? (has("face_landmarker.task") ? "landmarker" : "blazeface") : "haar"
        #expect(r.stderr.contains("head video:\(Self.video) (\(backend))"), "\(r.stderr)")
    }

    /// A camera index with no `/dev/videoN` on this machine (checked now, not assumed): the first
    /// free one from 7 up.
    static func absentCameraIndex() throws -> Int {
        try #require(CameraDevices.absentIndex(), "every /dev/video7…999 exists")
    }

    @Test func aCameraThatIsNotThereIsAOneLineErrorWhenAskedFor() throws {
        let n = try Self.absentCameraIndex()
        let x = try XvfbServer()
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let env = ProcessInfo.processInfo.environment.merging(["DISPLAY": x.display]) { _, new in new }
        // The window fails at once rather than waiting on the device: run on another thread, a
        // hang fails on the generous deadline. No figure of seconds is asserted.
        let run = Wait.returns(within: 120) {
            try BinaryLocator.run(binary, ["cube", "--head", "webcam:\(n)", "--frames", "5", "--size", "320x180"], environment: env)
        }
        let r = try #require(try run?.get(), "the window hung on the absent /dev/video\(n)")
        let errors = r.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(r.status == 2 && errors.count == 1 && CameraDevices.names(errors[0], n), "\(r.stderr)")
        let v = try x.run(["cube", "--head", "video:/nonexistent/clip.mp4", "--frames", "5", "--size", "320x180"])
        #expect(v.status == 2 && v.stderr.contains("/nonexistent/clip.mp4"), "\(v.stderr)")
    }

    @Test func withoutACameraTheMouseTakesOverWithANotice() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/video0") else { print("skipped: this machine has a camera"); return }
        let x = try XvfbServer()
        let r = try x.run(["cube", "--frames", "5", "--size", "320x180"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("no webcam found") && r.stderr.contains("head mouse"), "\(r.stderr)")
    }
}

@Suite("track webcam and calibrate commands")
struct TrackWebcamCommandTests {
    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func aVideoBecomesAReplayableLogWithStats() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let log = TestData.temporaryDirectory("track-webcam").appendingPathComponent("face.csv").path
        let r = try BinaryLocator.run(binary, ["track", "webcam", "--video", TestData.path("video/Megamind.avi"), "--frames", "48",
                                               "--out", log, "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("detect+landmarks+estimate") && r.stdout.contains("capture to pose") && r.stdout.contains("both eyes"))
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.first == "t,x,y,z,confidence,filtered_x,filtered_y,filtered_z,state,latency_ms,yaw,pitch,roll,"
                + "left_x,left_y,left_z,right_x,right_y,right_z" && lines.count == 49)
        let confidences = lines.dropFirst().compactMap { Double($0.split(separator: ",")[4]) }
        #expect(confidences.filter { $0 > 0.3 }.count >= 44, "almost every frame has a face")
        let info = try BinaryLocator.run(binary, ["track", "info", log])
        #expect(info.status == 0 && info.stdout.contains("samples: 48"), "\(info.stdout)\(info.stderr)")
    }

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func calibrationSavesTheIPDToTheConfigFile() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let dir = TestData.temporaryDirectory("calibrate")
        let config = dir.appendingPathComponent("config.json").path
        try #"{"screenWidthMM": 597, "screenHeightMM": 336}"#.write(toFile: config, atomically: true, encoding: .utf8)
        // Megamind turns his head: a calibration that sees a turned head asks to face the camera.
        let turned = try BinaryLocator.run(binary, ["track", "calibrate", "--video", TestData.path("video/Megamind.avi"), "--distance", "0.6",
                                                    "--seconds", "2", "--config", config])
        let models = BinaryLocator.hermetic()["SPLATFRAME_WEBCAM_DIR"] ?? ""
        if FileManager.default.fileExists(atPath: models + "/libmediapipe.so") {   // a back end that measures the head's pose
            #expect(turned.status == 2 && turned.stderr.contains("face the camera"), "\(turned.stderr)")
        }
        // The astronaut faces the camera (a still picture, looped for the two seconds).
        let r = try BinaryLocator.run(binary, ["track", "calibrate", "--video", TestData.path("video/astronaut.png"), "--distance", "0.6",
                                               "--seconds", "2", "--config", config])
        #expect(r.status == 0, "\(r.stderr)")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        let ipd = try #require(saved?["ipdMM"] as? Double, "\(r.stdout)")
        #expect(ipd > 40 && ipd < 90 && (saved?["screenWidthMM"] as? Double) == 597)
        #expect(r.stdout.contains("saved ipdMM to \(config)"))
    }
}
