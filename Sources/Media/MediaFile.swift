// MediaFile — a picture or a video file, decided by the file itself: what a wall of the room shows.
import Foundation
import ImageIO
import RenderCore

/// A file opened for a wall: a decoded picture, or a video playing on its own texture.
public enum MediaFile {
    case picture(RGBAImage)
    case video(VideoTexture)

    /// Picture or video, decided by the file: PNG and JPEG (by their first bytes) go through
    /// ImageIO; anything else is opened with OpenCV, and a file of more than one frame is a video
    /// (a one-frame file, e.g. BMP or WebP, is a picture). Errors are one-line `MediaError.file`
    /// naming the file.
    public static func open(_ path: String, playback: VideoTexture.Playback = .realtime) throws -> MediaFile {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file (permission denied?)" : "no such file"
            throw MediaError.file(path: path, reason: reason)
        }
        let head = [UInt8]((try? handle.read(upToCount: 8)) ?? Data())
        try? handle.close()
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) || head.starts(with: [0xFF, 0xD8, 0xFF]) {
            return .picture(try ImageFile.load(path))
        }
        let capture: VideoCapture
        do { capture = try VideoCapture(.file(path)) } catch {
            let detail = Self.detail(error, path)
            throw MediaError.file(path: path, reason: "neither a PNG/JPEG picture nor a video FFmpeg can decode"
                                  + (detail.hasPrefix("not a readable video or image") ? "" : " (\(detail))"))
        }
        if capture.frameCount == 1 {
            var frame = RGBFrame()
            guard (try? capture.read(into: &frame, timestamp: 0)) == true, frame.width > 0, frame.height > 0 else {
                throw MediaError.file(path: path, reason: "no frame could be decoded")
            }
            let texture = Texture(width: frame.width, height: frame.height)
            frame.pixels.withUnsafeBufferPointer { texture.update(rgb: $0.baseAddress!, rowBytes: frame.width * 3) }
            return .picture(texture.image(level: 0))
        }
        do { return .video(try VideoTexture(path: path, playback: playback)) } catch {
            throw MediaError.file(path: path, reason: "cannot play the video (\(Self.detail(error, path)))")
        }
    }

    /// The native message without its leading "PATH: " (the error names the file already).
    private static func detail(_ error: Error, _ path: String) -> String {
        let m = "\(error)"
        return m.hasPrefix(path + ": ") ? String(m.dropFirst(path.count + 2)) : m
    }
}
