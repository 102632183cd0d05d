// UDPSource — opentrack's "UDP over network" output received on a POSIX UDP socket.
import RenderCore
import Foundation
#if canImport(Glibc)
import Glibc
import Workers
#endif

/// Counters for the HUD and tests: what arrived on the socket and what was dropped.
public struct UDPStatus: Equatable, Sendable {
    /// The local port actually bound (useful when 0 = ephemeral was requested).
    public var boundPort: UInt16 = 0
    /// Datagrams read from the socket.
    public var received = 0
    /// Datagrams accepted as poses.
    public var accepted = 0
    /// Dropped: size ≠ 48 bytes.
    public var wrongSize = 0
    /// Dropped: a NaN or infinite value.
    public var nonFinite = 0
    /// Dropped: a value outside `UDPSource.Limits`.
    public var outOfRange = 0
    /// Clock time (seconds) of the last accepted datagram.
    public var lastAcceptTime: Double?
}

/// Receives opentrack's UDP output: each datagram is 48 bytes, six little-endian IEEE-754
/// doubles x, y, z (centimetres) and yaw, pitch, roll (degrees). A background thread polls
/// the socket (50 ms timeout, so `stop()` is prompt), drains every queued datagram, drops
/// wrong-sized, non-finite and absurd ones (counted in `status()`), maps the newest good one
/// into screen space with `mapping`, and publishes it through a `Locked`.
public final class UDPSource: PoseSource {
    /// Plausibility limits; a datagram exceeding any is dropped as absurd.
    public struct Limits: Sendable, Equatable {
        /// Maximum |x|, |y|, |z| in centimetres.
        public var maxTranslationCm: Double = 500
        /// Maximum |yaw|, |pitch|, |roll| in degrees.
        public var maxAngleDegrees: Double = 360
        public init() {}
    }

    /// Datagram size in bytes: six doubles.
    public static let packetSize = 48
    /// opentrack's default port.
    public static let defaultPort: UInt16 = 4242

    /// IPv4 address to bind (dotted quad), "127.0.0.1" by default.
    public let host: String
    /// Requested port (0 = ephemeral; see `status().boundPort`).
    public let port: UInt16
    /// opentrack → screen-space mapping.
    public let mapping: OpentrackMapping
    /// Plausibility limits.
    public let limits: Limits
    private let clock: ClockFunction
    private let worker = BackgroundThread(name: "splatframe.udp")
    private struct State { var fd: Int32 = -1; var latest: PoseSample?; var status = UDPStatus() }
    private let state = Locked(State())

    /// Creates a receiver for `host`:`port` (not yet bound; call `start()`).
    public init(host: String = "127.0.0.1", port: UInt16 = UDPSource.defaultPort,
                mapping: OpentrackMapping = .default, limits: Limits = Limits(),
                clock: @escaping ClockFunction = MonotonicClock.now) {
        self.host = host; self.port = port; self.mapping = mapping; self.limits = limits; self.clock = clock
    }

    deinit { stop() }

    public var name: String { "udp:\(host):\(port)" }

    /// The counters so far.
    public func status() -> UDPStatus { state.withLock { $0.status } }

    public var statusSummary: String? {
        let s = status()
        return "udp: received \(s.received), accepted \(s.accepted), dropped wrong size \(s.wrongSize), non-finite \(s.nonFinite), out of range \(s.outOfRange)"
    }

    public func latest() -> PoseSample? { state.withLock { $0.latest } }

    /// Binds the socket and starts the receiving thread. Throws `HeadTrackingError.socket`
    /// (e.g. port in use) or `.badSpec` for a host that is not an IPv4 address.
    public func start() throws {
        if worker.isRunning { return }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else {
            throw HeadTrackingError.badSpec(what: "UDP host", value: host, expected: "an IPv4 address such as 127.0.0.1 or 0.0.0.0")
        }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw HeadTrackingError.socket(call: "socket", errno: errno, detail: name) }
        // No SO_REUSEADDR: on Linux it would let a second UDP socket bind the same port and
        // silently steal the datagrams; UDP has no TIME_WAIT, so rebinding works without it.
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let e = errno; close(fd)
            throw HeadTrackingError.socket(call: "bind", errno: e, detail: "\(host):\(port)")
        }
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        state.withLock { $0.fd = fd; $0.status.boundPort = UInt16(bigEndian: bound.sin_port) }
        worker.start(loop: { [self] in pollOnce(fd: fd) })
    }

    /// Stops the thread (bounded wait) and closes the socket.
    public func stop() {
        worker.stop()
        let fd = state.withLock { s -> Int32 in let f = s.fd; s.fd = -1; return f }
        if fd >= 0 { close(fd) }
    }

    private func pollOnce(fd: Int32) {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&pfd, 1, 50)
        guard n > 0, pfd.revents & Int16(POLLIN) != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 512)
        var newest: Vec3d? = nil, newestRot: Vec3d? = nil
        var counts = UDPStatus()
        // Drain everything queued; keep only the newest good datagram.
        while true {
            let got = buffer.withUnsafeMutableBytes {
                recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC))
            }
            if got < 0 { break }   // EAGAIN: drained (or an error: try again next poll)
            counts.received += 1
            guard got == Self.packetSize else { counts.wrongSize += 1; continue }
            guard let values = Self.decode(buffer) else { counts.nonFinite += 1; continue }
            let t = Vec3d(values[0], values[1], values[2]), r = Vec3d(values[3], values[4], values[5])
            guard values[0..<3].allSatisfy({ Swift.abs($0) <= limits.maxTranslationCm }),
                  values[3..<6].allSatisfy({ Swift.abs($0) <= limits.maxAngleDegrees }) else {
                counts.outOfRange += 1; continue
            }
            counts.accepted += 1
            newest = t; newestRot = r
        }
        let now = clock()
        let sample = newest.map { PoseSample(timestamp: now, position: mapping.position($0),
                                             rotation: newestRot.map(mapping.rotation), confidence: 1) }
        state.withLock { s in
            s.status.received += counts.received
            s.status.accepted += counts.accepted
            s.status.wrongSize += counts.wrongSize
            s.status.nonFinite += counts.nonFinite
            s.status.outOfRange += counts.outOfRange
            if let sample { s.latest = sample; s.status.lastAcceptTime = now }
        }
    }

    /// The six little-endian doubles of a 48-byte datagram, or nil if any is NaN/±∞.
    static func decode(_ bytes: [UInt8]) -> [Double]? {
        guard bytes.count >= packetSize else { return nil }
        var out = [Double](repeating: 0, count: 6)
        bytes.withUnsafeBytes { raw in
            for i in 0..<6 {
                out[i] = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)))
            }
        }
        return out.allSatisfy(\.isFinite) ? out : nil
    }

    /// Encodes a pose as opentrack does (for tests and tools): six little-endian doubles.
    public static func encode(x: Double, y: Double, z: Double, yaw: Double, pitch: Double, roll: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(packetSize)
        for v in [x, y, z, yaw, pitch, roll] {
            withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        }
        return out
    }
}
