// Downloads — DownloadEntry: `entry.json` of a finished download (and `part.json` of one that
// can resume): the URL, the file's name and size, the server's validators.
import Foundation

struct DownloadEntry: Codable, Equatable {
    var url: String
    /// The file's name inside the entry's folder.
    var name: String
    /// Bytes (0 in `part.json`).
    var size: Int64
    /// The server's `ETag` and `Last-Modified`, sent back to revalidate or to resume.
    var etag: String?
    var lastModified: String?
    /// When it was downloaded (ISO 8601, UTC).
    var downloaded = ""

    init(url: String, name: String, size: Int64, etag: String?, lastModified: String?) {
        self.url = url; self.name = name; self.size = size; self.etag = etag; self.lastModified = lastModified
    }

    /// The entry at `path`, or nil when absent or unreadable (an unreadable one is treated as absent).
    static func read(_ path: String) -> DownloadEntry? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return nil }
        guard let e = try? JSONDecoder().decode(DownloadEntry.self, from: data),
              !e.name.isEmpty, !e.name.contains("/"), e.name != "..", e.size >= 0 else { return nil }
        return e
    }

    /// Writes atomically.
    func write(_ path: String) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        try enc.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
