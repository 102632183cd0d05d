// A network camera: Megamind served as MJPEG over HTTP on the loopback, tracked through
// `webcam:URL`; the server goes away mid-stream and comes back.
import Foundation
import HeadTracking
import Media
import Testing
import TestSupport
@testable import WebcamTracking

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct NetworkCameraTests {
    /// Megamind's frames 60…119 (the face in view) as JPEG files' bytes.
    static func jpegFrames() throws -> [Data] {
        let capture = try VideoCapture(.file(TestData.path("video/Megamind.avi")))
        let dir = TestData.temporaryDirectory("mjpeg")
        var frame = RGBFrame()
        var out: [Data] = []
        var i = 0
        while out.count < 60, try capture.read(into: &frame, timestamp: 0) {
            defer { i += 1 }
            guard i >= 60 else { continue }
            let path = dir.appendingPathComponent("f\(i).jpg").path
            try frame.write(path: path)
            out.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return out
    }

    @Test func urlsParseAsStreamsAndBadOnesAreOneLineErrors() throws {
        #expect(try CaptureSource.device(parsing: "http://127.0.0.1:8080/video") == .stream(url: "http://127.0.0.1:8080/video", timeout: 3))
        #expect(try CaptureSource.device(parsing: "rtsp://10.0.0.2/live", timeout: 5) == .stream(url: "rtsp://10.0.0.2/live", timeout: 5))
        for bad in ["http://", "ftp://x/y", "http://a b"] {
            #expect(throws: MediaError.self, "\(bad)") { try CaptureSource.device(parsing: bad) }
        }
        // Nothing listens on port 9 of the loopback: a quick, one-line refusal naming the URL.
        do { _ = try VideoCapture(.stream(url: "http://127.0.0.1:9/none.mjpg", timeout: 1)); Issue.record("opened") } catch {
            #expect("\(error)".contains("http://127.0.0.1:9/none.mjpg") && !"\(error)".contains("\n"), "\(error)")
        }
    }

    @Test("a loopback MJPEG camera is tracked; it drops, is reported lost, reconnects, and tracking resumes")
    func trackedThroughADropAndAReturn() throws {
        let server = MJPEGServer(frames: try Self.jpegFrames(), fps: 15)
        try server.start()
        defer { server.goAway() }
        let source = WebcamSource(capture: try VideoCapture(.stream(url: server.url, timeout: 2)),
                                  pipeline: try WebcamTestSupport.pipeline())
        try source.start()
        defer { source.stop() }
        #expect(source.name.hasPrefix("webcam:http://127.0.0.1:"))
        #expect(Wait.until { source.status().processed >= 45 }, "\(source.status())")

        server.goAway()
        #expect(Wait.until { source.status().notice?.contains("reconnecting") == true }, "\(source.status())")
        // The window never waits on the camera: its per-frame calls return while the stream is down.
        #expect(Wait.returns(within: 5) { source.latest() != nil && source.statusSummary != nil } != nil)
        let atLoss = source.status()

        try server.start()   // back on the same port
        #expect(Wait.until { source.status().reconnects >= 1 && source.status().processed >= atLoss.processed + 45 }, "\(source.status())")
        let s = source.status()
        #expect(s.notice == nil && s.failure == nil)
        let tracked = Double(s.tracked) / Double(max(1, s.processed))
        let captured = Double(s.captured) / Double(max(1, server.served))
        print(String(format: "network camera (%@): served %d, captured %d, processed %d, tracked %d (%.1f %% of processed), %d reconnect(s)",
                     s.backend, server.served, s.captured, s.processed, s.tracked, 100 * tracked, s.reconnects))
        #expect(tracked >= 0.95, "tracked \(s.tracked) of \(s.processed)")
        #expect(captured >= 0.8, "captured \(s.captured) of \(server.served) served")
    }
}
