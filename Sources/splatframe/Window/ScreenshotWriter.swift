// ScreenshotWriter — F12: the current frame (without the HUD) as a PNG, written off the frame loop.
import Foundation
import Workers
import ImageIO
import RenderCore

enum ScreenshotWriter {
    /// `$XDG_PICTURES_DIR/splatframe`, else the XDG user-dirs file's pictures folder + `/splatframe`,
    /// else the current directory.
    static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let d = environment["XDG_PICTURES_DIR"], !d.isEmpty { return d + "/splatframe" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        if let text = try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
                let value = line.dropFirst("XDG_PICTURES_DIR=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.replacingOccurrences(of: "$HOME", with: home) + "/splatframe"
            }
        }
        return FileManager.default.currentDirectoryPath
    }

    /// A file name from the time: `splatframe-20261123-091512-345.png`.
    static func fileName(date: Date = Date()) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyyMMdd-HHmmss-SSS"
        f.timeZone = TimeZone.current
        return "splatframe-\(f.string(from: date)).png"
    }

    /// Copies `image` and writes it on a background thread; `done` gets the path or the error
    /// (on that thread).
    static func save(_ image: RGBAImage, done: @escaping @Sendable (Result<String, Error>) -> Void) {
        let dir = directory()
        let path = dir + "/" + fileName()
        // The thread object lives as long as its one step runs.
        BackgroundThread(name: "splatframe.screenshot").start {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                // Written under a temporary name and renamed, so nobody sees a half-written PNG.
                let partial = dir + "/.partial-" + (path as NSString).lastPathComponent
                try ImageFile.savePNG(image, to: partial)
                guard rename(partial, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
                done(.success(path))
            } catch {
                done(.failure(error))
            }
            return false
        }
    }
}

/// A one-slot, thread-safe message from background work to the frame loop.
final class MessageBox: Sendable {
    private let text = Locked<String?>(nil)
    func post(_ s: String) { text.withLock { $0 = s } }
    func take() -> String? { text.withLock { t in defer { t = nil }; return t } }
}
