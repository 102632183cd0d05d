// The webcam tracker in the real window (under Xvfb) and from the command line.
import Foundation
import TestSupport
import Testing

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
