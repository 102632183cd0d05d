// LibraryEntry — one scene the library found: where it is, what it looks like from outside
// (name, format guessed from the name), and the stamp that says when it changed.
import Viewer
import Foundation

/// One scene file (or SOG folder) in the library.
public struct LibraryEntry: Sendable, Equatable, Hashable {
    /// What kind of thing the path names.
    public enum Kind: String, Sendable, Codable {
        /// A scene file: PLY, .splat, .spz, .sog, OBJ, STL, glTF, FBX, COLLADA, 3DS or our scene JSON.
        case file
        /// An unbundled PlayCanvas SOG: a folder holding `meta.json` and its images.
        case sogFolder
        /// A streamed SOG: a folder holding `lod-meta.json` (opened as SceneIO allows).
        case streamedSOG
        /// A scene listed by a feed (`LibraryFeed`): `path` is its URL, downloaded when opened.
        case online
    }

    /// Absolute, standardised path of the file or folder (what `SceneLoader` opens).
    public var path: String
    /// Shown under the thumbnail: the file name, with its subfolder when it came from one
    /// (`captures/garden.spz`).
    public var displayName: String
    public var kind: Kind
    /// When the file last changed, microseconds since 1970 (for a folder: its newest entry's).
    public var modified: Int64
    /// Bytes on disk (for a folder: the sum of its files').
    public var byteSize: Int64
    /// An online entry's picture URL (from its feed), or nil.
    public var thumbnailURL: String?

    public init(path: String, displayName: String, kind: Kind, modified: Int64, byteSize: Int64) {
        self.path = path; self.displayName = displayName; self.kind = kind; self.modified = modified; self.byteSize = byteSize
    }

    /// An online scene from a feed: named `name`, shown by the picture at `thumbnail` if any.
    public init(url: String, name: String, thumbnail: String?) {
        self.init(path: url, displayName: name, kind: .online, modified: 0, byteSize: 0)
        thumbnailURL = thumbnail
    }

    /// The format as its name says, before the file is read: "PLY", "SPZ", "SCENE JSON", "SOG FOLDER"…
    public var formatHint: String {
        switch kind {
        case .online:
            let ext = ((URLComponents(string: path)?.path ?? "") as NSString).pathExtension
            return ext.isEmpty ? "online" : ext.uppercased()
        case .sogFolder: return "SOG folder"
        case .streamedSOG: return "streamed SOG"
        case .file:
            let ext = (path as NSString).pathExtension.lowercased()
            return ext == "json" ? "scene JSON" : ext.uppercased()
        }
    }

    /// An entry for `path` with its current stamp, or nil when it cannot be read.
    public static func stamped(path: String, displayName: String, kind: Kind) -> LibraryEntry? {
        let fm = FileManager.default
        func stamp(_ p: String) -> (Int64, Int64)? {
            guard let a = try? fm.attributesOfItem(atPath: p) else { return nil }
            let date = (a[.modificationDate] as? Date) ?? .distantPast
            let size = (a[.size] as? NSNumber)?.int64Value ?? 0
            return (Int64((date.timeIntervalSince1970 * 1e6).rounded()), size)
        }
        guard var (modified, size) = stamp(path) else { return nil }
        if kind != .file {
            // A folder's own time changes only when files come or go: take its newest file's too.
            size = 0
            for name in (try? fm.contentsOfDirectory(atPath: path)) ?? [] where !name.hasPrefix(".") {
                if let (m, s) = stamp((path as NSString).appendingPathComponent(name)) {
                    modified = max(modified, m)
                    size += s
                }
            }
        }
        return LibraryEntry(path: path, displayName: displayName, kind: kind, modified: modified, byteSize: size)
    }
}

/// What a thumbnail's scene holds, shown under it (and cached beside it).
public struct LibraryItemInfo: Sendable, Codable, Equatable {
    /// Format as read: "PLY", "SPZ", "SOG", "OBJ", "STL", "SPLAT", "scene JSON".
    public var format: String
    /// "splats", "points" or "triangles".
    public var kind: String
    /// How many of `kind` (splats or points in the file; triangles drawn for meshes and rooms).
    public var count: Int

    public init(format: String, kind: String, count: Int) { self.format = format; self.kind = kind; self.count = count }

    /// "PLY · 2,000 splats".
    public var summary: String { kind == "online" ? "\(format) · online" : "\(format) · \(Self.grouped(count)) \(kind)" }

    /// 1234567 → "1,234,567" (locale-independent).
    public static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}
