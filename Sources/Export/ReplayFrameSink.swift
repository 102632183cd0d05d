// ReplayFrameSink — where exported frames go: a PNG sequence or an ffmpeg pipe.
import Viewer
import Foundation
import ImageIO
import RenderCore

/// Receives exported frames in order.
public protocol ReplayFrameSink: AnyObject {
    /// Writes frame `index` (the framebuffer is reused after the call returns).
    func write(frame index: Int, framebuffer: Framebuffer) throws
    /// Flushes and closes the output.
    func finish() throws
}

/// `DIR/frame_00000.png`, `frame_00001.png`, … (the directory is created if needed).
public final class PNGSequenceSink: ReplayFrameSink {
    /// The output directory.
    public let directory: String

    /// A sink writing into `directory`.
    public init(directory: String) throws {
        self.directory = directory
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw ViewerError.cannotWrite(path: directory, reason: "cannot create directory (\((error as NSError).localizedDescription))")
        }
    }

    /// The file name of frame `index`.
    public static func fileName(_ index: Int) -> String { String(format: "frame_%05d.png", index) }

    public func write(frame index: Int, framebuffer: Framebuffer) throws {
        try ImageFile.savePNG(framebuffer.image(), to: (directory as NSString).appendingPathComponent(Self.fileName(index)))
    }

    public func finish() throws {}
}

/// Pipes raw RGBA frames to `ffmpeg -f rawvideo` to make a video (H.264 in yuv420p for .mp4).
public final class FFmpegSink: ReplayFrameSink {
    /// The output video file.
    public let path: String
    private let process: Process
    private let pipe: Pipe
    private let errorFile: URL

    /// The `ffmpeg` executable on PATH, or nil when it is not installed.
    public static func findExecutable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let p = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// Starts ffmpeg writing `path` at `fps` for `width`×`height` RGBA frames.
    public init(path: String, width: Int, height: Int, fps: Double) throws {
        guard let exe = Self.findExecutable() else {
            throw ViewerError.cannotWrite(path: path,
                                          reason: "a video needs the ffmpeg command, which is not installed (apt-get install ffmpeg), or give a directory for a PNG sequence")
        }
        self.path = path
        process = Process()
        process.executableURL = URL(fileURLWithPath: exe)
        var args = ["-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba",
                    "-s", "\(width)x\(height)", "-r", String(format: "%g", fps), "-i", "-"]
        if path.lowercased().hasSuffix(".mp4") || path.lowercased().hasSuffix(".mkv") || path.lowercased().hasSuffix(".mov") {
            args += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
        }
        process.arguments = args + [path]
        pipe = Pipe()
        process.standardInput = pipe
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("splatframe-ffmpeg-\(getpid()).log")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = FileHandle.nullDevice
        signal(SIGPIPE, SIG_IGN)
        do { try process.run() } catch {
            throw ViewerError.cannotWrite(path: path, reason: "cannot start ffmpeg (\((error as NSError).localizedDescription))")
        }
    }

    public func write(frame index: Int, framebuffer: Framebuffer) throws {
        let fd = pipe.fileHandleForWriting.fileDescriptor
        var p = UnsafeRawPointer(framebuffer.color)
        var left = framebuffer.pixelCount * 4   // UInt32 r | g<<8 | b<<16 | a<<24 = bytes R, G, B, A
        while left > 0 {
            let n = Foundation.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw ViewerError.cannotWrite(path: path, reason: "ffmpeg stopped at frame \(index): \(ffmpegMessage())")
            }
            p += n; left -= n
        }
    }

    public func finish() throws {
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: errorFile) }
        guard process.terminationStatus == 0 else {
            throw ViewerError.cannotWrite(path: path, reason: "ffmpeg failed (exit \(process.terminationStatus)): \(ffmpegMessage())")
        }
    }

    private func ffmpegMessage() -> String {
        let text = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
    }
}
