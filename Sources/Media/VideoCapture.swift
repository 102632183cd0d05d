// VideoCapture — a camera (V4L2) or a video/still file, through the native layer's OpenCV capture.
import CWebcam
import Foundation
import Workers

/// Where frames come from.
public enum CaptureSource: Sendable, Equatable, CustomStringConvertible {
    /// `/dev/videoN`.
    case device(Int)
    /// A video file (or a still image read as a one-frame video), played at its frame rate, looping.
    case file(String)
    /// A network camera: an MJPEG-over-HTTP or RTSP URL (anything OpenCV's FFmpeg backend opens),
    /// opened and read with waits bounded by `timeout` seconds.
    case stream(url: String, timeout: Double)

    /// Schemes a stream URL may have.
    public static let streamSchemes = ["http", "https", "rtsp", "rtsps", "rtmp", "udp", "tcp", "srt"]
    /// The default bound on opening a stream and on each read (seconds).
    public static let defaultStreamTimeout = 3.0

    /// Parses `webcam[:N|/dev/videoN|URL]`'s device part (nil = 0); a URL waits at most `timeout` s.
    public static func device(parsing s: String?, timeout: Double = defaultStreamTimeout) throws -> CaptureSource {
        guard let s, !s.isEmpty else { return .device(0) }
        if let r = s.range(of: "://") {
            let scheme = s[..<r.lowerBound].lowercased()
            guard streamSchemes.contains(scheme), !s[r.upperBound...].isEmpty,
                  !s.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                throw MediaError.capture("invalid camera URL '\(s.prefix(80))': expected \(streamSchemes.joined(separator: ", "))://HOST[:PORT]/PATH")
            }
            return .stream(url: s, timeout: timeout)
        }
        let digits = s.hasPrefix("/dev/video") ? String(s.dropFirst(10)) : s
        guard let n = Int(digits), n >= 0, n < 1000 else {
            throw MediaError.capture("invalid webcam device '\(s)': expected an index (0) or /dev/videoN")
        }
        return .device(n)
    }

    public var description: String {
        switch self {
        case .device(let n): return "/dev/video\(n)"
        case .file(let p): return p
        case .stream(let url, _): return url
        }
    }
}

/// An open capture. Reads and rewinds take turns behind a lock (one capture thread, or the
/// offline reader, uses it at a time anyway); its description (`source`, `fps`, size) is free.
public final class VideoCapture: Sendable {
    /// The native capture and the index of the next frame it returns: used only under the lock.
    private struct Native {
        let handle: OpaquePointer
        var nextIndex = 0
    }
    private let native: Locked<Native>
    /// What was opened.
    public let source: CaptureSource
    /// Frames per second of a file (0 when unknown or a still image); a camera's reported rate.
    public let fps: Double
    /// Frames in a file (an estimate for some formats; 1 for a still image; -1 for a camera).
    public let frameCount: Int
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// Exposure → read returned (seconds), for frames the back end does not stamp itself
    /// (`read(into:clock:)`): config `cameraDelayMs`; by default one frame interval for a camera
    /// whose driver gives no time stamp, 0 for a stream (its frames are stamped on arrival: no
    /// exposure time crosses MJPEG or RTSP as OpenCV reads them) and for a file.
    public let exposureDelay: Double

    /// Opens `source`; a camera is asked for 640×480. Throws `MediaError.capture` with the
    /// native one-line message (missing device, unreadable file…), quickly: never waits for a camera.
    /// `exposureDelay` (seconds) overrides the default described at `exposureDelay`.
    public init(_ source: CaptureSource, exposureDelay: Double? = nil) throws {
        self.source = source
        let (h, message) = withNativeErrorBuffer { err, len -> OpaquePointer? in
            switch source {
            case .device(let n): return sfw_capture_open_device(Int32(n), 640, 480, err, len)
            case .file(let path): return sfw_capture_open_file(path, err, len)
            case .stream(let url, let timeout):
                let ms = Int32(max(0.1, min(600, timeout)) * 1000)
                return sfw_capture_open_url(url, ms, ms, err, len)
            }
        }
        guard let h else { throw MediaError.capture(message.isEmpty ? "\(source): cannot open" : message) }
        fps = sfw_capture_fps(h)
        frameCount = Int(sfw_capture_frame_count(h))
        width = Int(sfw_capture_width(h)); height = Int(sfw_capture_height(h))
        native = Locked(Native(handle: h))
        if let exposureDelay {
            self.exposureDelay = max(0, exposureDelay)
        } else if case .device = source {
            self.exposureDelay = 1 / (fps > 1 ? fps : 30)
        } else {
            self.exposureDelay = 0
        }
    }

    deinit { native.withLock { sfw_capture_close($0.handle) } }

    /// True for a file (which ends and can be rewound), false for a camera or a stream.
    public var isFile: Bool { if case .file = source { return true }; return false }
    /// True for a network stream (which can drop and be reopened).
    public var isStream: Bool { if case .stream = source { return true }; return false }

    /// Reads the next frame into `frame` (reusing its storage), stamping it with `timestamp`.
    /// Returns false at the end of a file. Throws when a camera stops delivering frames.
    public func read(into frame: inout RGBFrame, timestamp: Double) throws -> Bool {
        try native.withLock { try read(&$0, into: &frame, timestamp: timestamp) }
    }

    private func read(_ native: inout Native, into frame: inout RGBFrame, timestamp: Double) throws -> Bool {
        let handle = native.handle
        while true {
            var w: Int32 = 0, h: Int32 = 0
            let capacity = frame.pixels.count
            let (status, message) = withNativeErrorBuffer { err, len in
                frame.pixels.withUnsafeMutableBufferPointer { sfw_capture_read(handle, $0.baseAddress, Int32(capacity), &w, &h, err, len) }
            }
            if status == 1 {
                frame.width = Int(w); frame.height = Int(h); frame.timestamp = timestamp
                frame.index = native.nextIndex; native.nextIndex += 1
                return true
            }
            if status == 0 { return false }
            let needed = Int(w) * Int(h) * 3
            if needed > capacity && needed > 0 && needed <= 8192 * 8192 * 3 {
                frame.pixels = [UInt8](repeating: 0, count: needed)   // grow once, then read again
                continue
            }
            throw MediaError.capture(message.isEmpty ? "\(source): read failed" : message)
        }
    }

    /// The back end's own time stamp of the last frame read (seconds on CLOCK_MONOTONIC: V4L2's
    /// buffer time), when it gives one.
    public var lastFrameTime: Double? {
        let ms = native.withLock { sfw_capture_frame_time_ms($0.handle) }
        return ms > 0 ? ms / 1000 : nil
    }

    /// Restarts a file at its first frame (for looping).
    public func rewind() throws {
        let (status, message) = native.withLock { n in withNativeErrorBuffer { sfw_capture_rewind(n.handle, $0, $1) } }
        if status != 0 { throw MediaError.capture(message) }
    }
}

extension VideoCapture: CameraFrameSource {
    public var frameSourceName: String {
        switch source {
        case .device(let n): return "webcam:/dev/video\(n)"
        case .file(let p): return "video:\(p)"
        case .stream(let url, _): return "webcam:\(url)"
        }
    }

    public var longestRead: Double { if case .stream(_, let timeout) = source { return timeout }; return 2 }

    /// Reads the next frame stamped with its exposure: the driver's time stamp when it gives a
    /// plausible one (within the last second of `clock`, which must then be `MonotonicClock`),
    /// else the moment the read returned minus `exposureDelay`.
    public func read(into frame: inout RGBFrame, clock: @Sendable () -> Double) throws -> Bool {
        guard try read(into: &frame, timestamp: 0) else { return false }
        let returned = clock()
        if let t = lastFrameTime, t <= returned, t > returned - 1 {
            frame.timestamp = t
        } else {
            frame.timestamp = returned - exposureDelay
        }
        return true
    }

    public func reopened() throws -> any CameraFrameSource { try VideoCapture(source, exposureDelay: exposureDelay) }
}
