// UDPSourceTests — opentrack datagrams through a real loopback socket (ephemeral ports).
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import HeadTracking
import TestSupport

/// A UDP client socket sending to 127.0.0.1:port.
private final class Sender {
    let fd: Int32
    var addr = sockaddr_in()
    init(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
    }
    deinit { close(fd) }
    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { b in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }
}

/// Waits (polling every 2 ms) until `condition` holds; the generous, time-scaled deadline only
/// catches a datagram that never arrives.
private func eventually(_ condition: () -> Bool) -> Bool {
    Wait.until(timeout: 30, poll: 0.002, condition)
}

@Suite(.serialized) struct UDPSourceTests {
    private func started() throws -> (UDPSource, Sender) {
        let src = UDPSource(host: "127.0.0.1", port: 0)
        try src.start()
        let port = src.status().boundPort
        #expect(port != 0)
        return (src, Sender(port: port))
    }

    @Test func goodPacketIsMappedIntoScreenSpace() throws {
        let (src, tx) = try started()
        defer { src.stop() }
        tx.send(UDPSource.encode(x: 10, y: -5, z: 20, yaw: 90, pitch: 0, roll: 0))
        #expect(eventually { src.status().accepted == 1 })
        let s = try #require(src.latest())
        // Default mapping: x,y,-z, cm → m, centred pose at (0, 0, 0.6).
        #expect(abs(s.position.x - 0.10) < 1e-12)
        #expect(abs(s.position.y + 0.05) < 1e-12)
        #expect(abs(s.position.z - 0.40) < 1e-12)
        #expect(abs(s.rotation!.x - Double.pi / 2) < 1e-12)
        #expect(s.confidence == 1)
    }

    @Test func dropsGarbageNaNAbsurdAndWrongSizes() throws {
        let (src, tx) = try started()
        defer { src.stop() }
        tx.send([1, 2, 3])                                                    // short
        tx.send([UInt8](repeating: 0, count: 49))                             // one byte too many
        tx.send([UInt8](repeating: 0, count: 1000))                           // big
        tx.send([])                                                           // empty datagram
        tx.send(UDPSource.encode(x: .nan, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0))
        tx.send(UDPSource.encode(x: 0, y: 0, z: 0, yaw: .infinity, pitch: 0, roll: 0))
        tx.send(UDPSource.encode(x: 1e9, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0))
        tx.send(UDPSource.encode(x: 0, y: 0, z: 0, yaw: 0, pitch: 720, roll: 0))
        #expect(eventually { src.status().received == 8 })
        let st = src.status()
        #expect(st.wrongSize == 4)
        #expect(st.nonFinite == 2)
        #expect(st.outOfRange == 2)
        #expect(st.accepted == 0)
        #expect(src.latest() == nil)
        // A good packet after the garbage still gets through.
        tx.send(UDPSource.encode(x: 1, y: 2, z: 3, yaw: 0, pitch: 0, roll: 0))
        #expect(eventually { src.status().accepted == 1 })
        #expect(src.latest() != nil)
    }

    @Test func burstKeepsTheNewest() throws {
        let (src, tx) = try started()
        defer { src.stop() }
        for k in 0..<100 { tx.send(UDPSource.encode(x: Double(k) / 10, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0)) }
        // The last datagram of the burst (x = 9.9 cm) ends up as the published sample.
        #expect(eventually { src.latest().map { abs($0.position.x - 0.099) < 1e-9 } ?? false })
        #expect(src.status().received <= 100)
    }

    @Test func stopIsPromptAndPortIsReusable() throws {
        let (src, tx) = try started()
        let port = src.status().boundPort
        tx.send(UDPSource.encode(x: 1, y: 2, z: 3, yaw: 0, pitch: 0, roll: 0))
        #expect(eventually { src.status().accepted == 1 })
        // stop returns (the receive loop polls with a 50 ms timeout): a hang fails here, on the
        // generous deadline, instead of blocking the suite. No figure of seconds is asserted.
        #expect(Wait.returns { src.stop() } != nil, "stop hung")
        #expect(Wait.returns { src.stop() } != nil, "a second stop hung")   // idempotent
        // After stop: the counters and the last sample stay readable, and the socket is closed,
        // so the same port can be bound again.
        #expect(src.status().accepted == 1 && src.latest() != nil)
        let again = UDPSource(host: "127.0.0.1", port: port)
        try again.start()
        #expect(again.status().boundPort == port)
        again.stop()
    }

    @Test func badHostAndPortInUse() throws {
        #expect(throws: HeadTrackingError.self) { try UDPSource(host: "not-an-ip", port: 0).start() }
        let (src, _) = try started()
        defer { src.stop() }
        // A second receiver on the same port must fail loudly rather than share the datagrams.
        let clash = UDPSource(host: "127.0.0.1", port: src.status().boundPort)
        #expect(throws: HeadTrackingError.self) { try clash.start() }
    }

    @Test func encodeDecodeRoundTrip() {
        let b = UDPSource.encode(x: 1.5, y: -2, z: 3.25, yaw: 4, pitch: 5, roll: -6)
        #expect(b.count == 48)
        #expect(UDPSource.decode(b) == [1.5, -2, 3.25, 4, 5, -6])
        #expect(b[0..<8] == [0, 0, 0, 0, 0, 0, 0xF8, 0x3F])   // 1.5 little-endian
    }
}
