// PoseSender — the head pose sent to other apps as opentrack's "UDP over network" packet.
import Foundation
import Synchronization
import RenderCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends poses as opentrack's UDP packet (six little-endian doubles: x, y, z in centimetres,
/// yaw, pitch, roll in degrees) to `host:port`, in the frame our own `--head udp` source reads
/// with the same `mapping` (its inverse), so that sending and receiving is the identity. One
/// datagram per `send`; a failed send is counted, never thrown (the window goes on).
public final class PoseSender: Sendable {
    public let host: String, port: UInt16
    public let mapping: OpentrackMapping
    private let fd: Int32
    private let address: sockaddr_in
    private let sentCount = Atomic<Int>(0), failedCount = Atomic<Int>(0)
    /// Datagrams sent.
    public var sent: Int { sentCount.load(ordering: .relaxed) }
    /// Sends that failed.
    public var failed: Int { failedCount.load(ordering: .relaxed) }

    /// Opens a UDP socket for `host` (an IPv4 address) and `port`. Throws `HeadTrackingError`.
    public init(host: String, port: UInt16, mapping: OpentrackMapping) throws {
        self.host = host; self.port = port; self.mapping = mapping
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw HeadTrackingError.badSpec(what: "pose target host", value: host, expected: "an IPv4 address such as 127.0.0.1")
        }
        self.address = address
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw HeadTrackingError.socket(call: "socket", errno: errno, detail: "pose target \(host):\(port)") }
    }

    deinit { close(fd) }

    /// The packet for a screen-space `position` (metres) and `rotation` (yaw, pitch, roll, radians).
    public func packet(position: Vec3d, rotation: Vec3d?) -> [UInt8] {
        let t = mapping.opentrack(position: position), r = mapping.opentrackDegrees(rotation ?? .zero)
        return UDPSource.encode(x: t.x, y: t.y, z: t.z, yaw: r.x, pitch: r.y, roll: r.z)
    }

    /// Sends `pose` (its filtered position and rotation).
    public func send(_ pose: HeadPose) { send(position: pose.position, rotation: pose.rotation) }

    /// Sends one packet.
    public func send(position: Vec3d, rotation: Vec3d?) {
        let bytes = packet(position: position, rotation: rotation)
        let n = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if n == bytes.count { sentCount.add(1, ordering: .relaxed) } else { failedCount.add(1, ordering: .relaxed) }
    }
}

/// Where `--send-pose` sends: `udp[:HOST][:PORT]` (default 127.0.0.1:4242), the same grammar as
/// the `udp` head source.
public struct PoseTarget: Equatable, Sendable, CustomStringConvertible {
    public var host: String, port: UInt16

    public init(host: String = "127.0.0.1", port: UInt16 = UDPSource.defaultPort) { self.host = host; self.port = port }

    /// Parses `udp[:HOST][:PORT]`.
    public init(parsing text: String) throws {
        guard text.lowercased().hasPrefix("udp"), case let .udp(h, p)? = try? HeadSourceSpec(parsing: text) else {
            throw HeadTrackingError.badSpec(what: "pose target", value: text, expected: "udp[:HOST][:PORT], e.g. udp or udp:127.0.0.1:4243")
        }
        guard h != "0.0.0.0" else {
            throw HeadTrackingError.badSpec(what: "pose target", value: text, expected: "a host to send to, not 0.0.0.0")
        }
        host = h; port = p
    }

    public var description: String { "udp:\(host):\(port)" }

    /// Whether a `--head udp` source listening on `source` would receive these packets itself
    /// (same port, and the same host or a source bound to every interface).
    public func loopsBack(into source: HeadSourceSpec) -> Bool {
        guard case let .udp(h, p) = source, p == port else { return false }
        return h == host || h == "0.0.0.0" || (h.hasPrefix("127.") && host.hasPrefix("127."))
    }
}
