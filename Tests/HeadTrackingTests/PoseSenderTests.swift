// --send-pose: opentrack's UDP packet, byte for byte, and our own UDP source hearing it.
import Foundation
import Testing
@testable import HeadTracking
import TestSupport

@Suite struct PoseSenderTests {
    @Test("a known pose makes the golden packet: x, y, z cm and yaw, pitch, roll degrees, little-endian doubles")
    func goldenPacket() throws {
        let sender = try PoseSender(host: "127.0.0.1", port: 9, mapping: OpentrackMapping(offset: Vec3d(0, 0, 0.5)))
        let deg = Double.pi / 180
        // 1 cm right, 2 cm up, 25 cm nearer the screen than the neutral eye at 0.5 m: opentrack
        // (1, 2, +25) cm (its z points toward the camera), yaw 10°, pitch −5°, roll 2° — all
        // exact in binary, so the bytes are those of struct.pack('<6d', 1, 2, 25, 10, -5, 2).
        let bytes = sender.packet(position: Vec3d(0.01, 0.02, 0.25), rotation: Vec3d(10 * deg, -5 * deg, 2 * deg))
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        #expect(hex == "000000000000f03f00000000000000400000000000003940000000000000244000000000000014c00000000000000040", "\(hex)")
    }

    @Test("our --head udp source receives what --send-pose sends: the round trip is the identity")
    func roundTripThroughOurOwnSource() throws {
        let geometry = TrackingGeometry()
        let mapping = OpentrackMapping(offset: geometry.neutralEye)
        let source = UDPSource(host: "127.0.0.1", port: 0, mapping: mapping)
        try source.start()
        defer { source.stop() }
        let sender = try PoseSender(host: "127.0.0.1", port: source.status().boundPort, mapping: mapping)
        let position = Vec3d(-0.043, 0.117, 0.512), rotation = Vec3d(0.3, -0.1, 0.05)
        var heard: PoseSample?
        Wait.until(poll: 0.01) {
            sender.send(position: position, rotation: rotation)
            heard = source.latest()
            return heard != nil
        }
        let sample = try #require(heard)
        #expect(simd_distance(sample.position, position) < 1e-12, "\(sample.position)")
        #expect(simd_distance(sample.rotation ?? .zero, rotation) < 1e-12)
        #expect(sender.sent >= 1 && sender.failed == 0)
    }

    @Test("the window refuses to send to the port its udp source listens on")
    func refusesToHearItself() throws {
        var options = HeadTrackingOptions()
        options.head = .udp(host: "127.0.0.1", port: 4250)
        options.sendPose = PoseTarget(host: "127.0.0.1", port: 4250)
        #expect(throws: HeadTrackingError.poseTargetLoopsBack(target: PoseTarget(host: "127.0.0.1", port: 4250),
                                                              source: .udp(host: "127.0.0.1", port: 4250))) {
            try HeadTrackingSession(options: options)
        }
        let text = HeadTrackingError.poseTargetLoopsBack(target: PoseTarget(port: 4250), source: .udp(host: "0.0.0.0", port: 4250)).description
        #expect(text.contains("udp:127.0.0.1:4250") && text.contains("udp:0.0.0.0:4250") && !text.contains("--"), "\(text)")
        options.sendPose = PoseTarget(host: "127.0.0.1", port: 4251)
        _ = try HeadTrackingSession(options: options)
        #expect(throws: HeadTrackingError.self) { try PoseTarget(parsing: "mouse") }
        #expect(throws: HeadTrackingError.self) { try PoseTarget(parsing: "udp:0.0.0.0") }
        #expect(try PoseTarget(parsing: "udp") == PoseTarget(host: "127.0.0.1", port: 4242))
        #expect(try PoseTarget(parsing: "udp:4243") == PoseTarget(host: "127.0.0.1", port: 4243))
    }
}

private func simd_distance(_ a: Vec3d, _ b: Vec3d) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
