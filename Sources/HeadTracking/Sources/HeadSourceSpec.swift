// HeadSourceSpec — the `--head SOURCE` grammar.

/// Which head source to use. Text forms (`--head`):
/// `mouse` · `fixed:X,Y,Z` (metres; also `--eye X,Y,Z`) · `replay:LOG` ·
/// `udp[:HOST][:PORT]` (default 127.0.0.1:4242; `udp:0.0.0.0` listens on all interfaces,
/// `udp:4243` changes the port) · `webcam[:DEVICE]` (index or /dev/videoN; default 0) ·
/// `video:FILE` (a recorded video played at its frame rate, looping, through the webcam tracker).
public enum HeadSourceSpec: Equatable, Sendable, CustomStringConvertible {
    /// The cursor over the window (the default without a webcam).
    case mouse
    /// A fixed eye position (metres, screen space).
    case fixed(Vec3d)
    /// A log file played in real time.
    case replay(path: String)
    /// opentrack's UDP output.
    case udp(host: String, port: UInt16)
    /// A webcam: face and eyes tracked in its images (WebcamTracking).
    case webcam(device: String?)
    /// A video file through the same webcam tracker, at the file's frame rate, looping.
    case video(path: String)

    /// Sources that need the webcam tracker (built by a `CameraSourceMaker`).
    public var isCamera: Bool {
        switch self {
        case .webcam, .video: return true
        default: return false
        }
    }

    /// The default source.
    public static let `default` = HeadSourceSpec.mouse

    /// Parses the text form.
    public init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces)
        let lower = t.lowercased()
        let expected = "mouse, fixed:X,Y,Z, replay:LOG, udp[:HOST][:PORT], webcam[:DEVICE] or video:FILE"
        func bad() -> HeadTrackingError { .badSpec(what: "head source", value: text, expected: expected) }
        if lower == "mouse" { self = .mouse; return }
        if lower.hasPrefix("fixed:") { self = .fixed(try parseVector3(String(t.dropFirst(6)), what: "eye")); return }
        if lower.hasPrefix("replay:") {
            let p = String(t.dropFirst(7))
            guard !p.isEmpty else { throw bad() }
            self = .replay(path: p); return
        }
        if lower == "webcam" { self = .webcam(device: nil); return }
        if lower.hasPrefix("video:") {
            let p = String(t.dropFirst(6))
            guard !p.isEmpty else { throw bad() }
            self = .video(path: p); return
        }
        if lower.hasPrefix("webcam:") { self = .webcam(device: String(t.dropFirst(7))); return }
        if lower == "udp" || lower.hasPrefix("udp:") {
            var host = "127.0.0.1", port = UDPSource.defaultPort
            let rest = lower == "udp" ? [] : t.dropFirst(4).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            func parsePort(_ s: String) throws -> UInt16 {
                guard let p = UInt16(s), p > 0 else { throw bad() }
                return p
            }
            func isHost(_ s: String) -> Bool {
                let parts = s.split(separator: ".", omittingEmptySubsequences: false)
                return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil } || s == "localhost"
            }
            switch rest.count {
            case 0: break
            case 1:
                if isHost(rest[0]) { host = rest[0] == "localhost" ? "127.0.0.1" : rest[0] } else { port = try parsePort(rest[0]) }
            case 2:
                guard isHost(rest[0]) else { throw bad() }
                host = rest[0] == "localhost" ? "127.0.0.1" : rest[0]; port = try parsePort(rest[1])
            default: throw bad()
            }
            self = .udp(host: host, port: port); return
        }
        throw bad()
    }

    public var description: String {
        switch self {
        case .mouse: return "mouse"
        case .fixed(let e): return "fixed:\(e.x),\(e.y),\(e.z)"
        case .replay(let p): return "replay:\(p)"
        case let .udp(h, p): return "udp:\(h):\(p)"
        case .webcam(let d): return d.map { "webcam:\($0)" } ?? "webcam"
        case .video(let p): return "video:\(p)"
        }
    }
}

/// Parses `X,Y,Z` (three finite numbers) for `what` in errors.
public func parseVector3(_ text: String, what: String) throws -> Vec3d {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        .map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2],
          x.isFinite, y.isFinite, z.isFinite else {
        throw HeadTrackingError.badSpec(what: what, value: text, expected: "three numbers X,Y,Z")
    }
    return Vec3d(x, y, z)
}

import Foundation
