// ThumbnailCache — rendered thumbnails on disk, keyed by the scene's path, the thumbnail size
// and the file's modification time and size, so a changed file is rendered again.
import Viewer
import Foundation
import ImageIO
import RenderCore

/// A folder of thumbnails: `KEY.png` (the picture) and `KEY.json` (what the scene holds),
/// `KEY` a 64-bit FNV-1a hash (16 hex digits) of
/// `version | absolute path | W×H | modification time (µs) | byte size`.
/// Writes are atomic (a temporary name, then a rename), so a reader sees a whole entry or none;
/// several processes may share the folder. Nothing is ever evicted (a thumbnail is ~50 KB).
public struct ThumbnailCache: Sendable {
    /// Bumped when thumbnails are drawn differently, so old ones are not reused.
    public static let version = 1

    /// The folder (created on the first store).
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The key of `entry`'s thumbnail at `width`×`height`: changes with the path, the size, the
    /// file's modification time and its byte size.
    public static func key(for entry: LibraryEntry, width: Int, height: Int) -> String {
        StableHash.hex("v\(version)|\(entry.path)|\(width)x\(height)|\(entry.modified)|\(entry.byteSize)|\(entry.thumbnailURL ?? "")")
    }

    /// The picture's path for `key`.
    public func imagePath(_ key: String) -> String { directory + "/" + key + ".png" }
    /// The info's path for `key`.
    public func infoPath(_ key: String) -> String { directory + "/" + key + ".json" }

    /// The cached thumbnail and info, or nil (missing, unreadable, or not `width`×`height`).
    public func load(key: String, width: Int, height: Int) -> (RGBAImage, LibraryItemInfo)? {
        guard let data = FileManager.default.contents(atPath: infoPath(key)),
              let info = try? JSONDecoder().decode(LibraryItemInfo.self, from: data),
              let image = try? ImageFile.load(imagePath(key)),
              image.width == width, image.height == height else { return nil }
        return (image, info)
    }

    /// Stores a thumbnail (the picture first, then the info that makes the entry complete).
    public func store(key: String, image: RGBAImage, info: LibraryItemInfo) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let tmp = directory + "/.\(key)-\(UUID().uuidString).png"
        try ImageFile.savePNG(image, to: tmp)
        if FileManager.default.fileExists(atPath: imagePath(key)) { try? FileManager.default.removeItem(atPath: imagePath(key)) }
        do { try FileManager.default.moveItem(atPath: tmp, toPath: imagePath(key)) } catch {
            try? FileManager.default.removeItem(atPath: tmp)
            throw error
        }
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        try enc.encode(info).write(to: URL(fileURLWithPath: infoPath(key)), options: .atomic)
    }
}
