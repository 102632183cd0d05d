// Downloads — DownloadCache: the download cache's folder bounded in bytes (RenderCore's
// `LRUFolder`, shared with the level-of-detail cache): listed, evicted least recently used first,
// cleared.
//
// An entry is `KEY/` (16 hex digits: the URL's `StableHash`) holding the file, `entry.json`, and
// while a transfer runs or can resume `NAME.part` and `part.json`; all its files count. Last use is
// the folder's modification time, bumped on every fetch (hit or not). An entry whose `.lock` is
// held (a fetch in progress, in this process or another) is never removed: removal takes the lock
// without waiting, and a fetch that then gets the lock of a removed entry starts again.
import Foundation
import RenderCore

/// The download cache at `folder`, bounded by `limitBytes`.
public struct DownloadCache: Sendable, Equatable {
    /// The default bound: 10 GiB.
    public static let defaultLimitBytes: Int64 = 10 << 30

    public let folder: String
    /// Most bytes the entries may hold together.
    public var limitBytes: Int64

    public init(folder: String, limitBytes: Int64 = DownloadCache.defaultLimitBytes) {
        self.folder = folder; self.limitBytes = max(0, limitBytes)
    }

    /// One entry as `splatframe cache` lists it.
    public struct Listing: Sendable, Equatable {
        /// The entry's folder name (16 hex digits).
        public let name: String
        /// The URL it was downloaded from (`entry.json`, else `part.json`), or "?".
        public let source: String
        /// Whether the download is whole (`entry.json` is there); false: a part kept for a resume.
        public let complete: Bool
        public let bytes: Int
        /// Seconds since 1970.
        public let lastUse: Double
    }

    var lru: LRUFolder { LRUFolder(path: folder, isEntry: Self.isEntryName, bytes: RegularFile.bytes(inFolder:)) }

    /// The entries, least recently used first.
    public func list() -> [Listing] {
        lru.entries().map { e in
            let dir = folder + "/" + e.name
            let whole = DownloadEntry.read(dir + "/entry.json")
            let url = whole?.url ?? DownloadEntry.read(dir + "/part.json")?.url
            return Listing(name: e.name, source: url ?? "?", complete: whole != nil, bytes: e.bytes, lastUse: e.lastUse)
        }
    }

    /// Bytes the entries hold.
    public var usedBytes: Int { lru.usedBytes }

    /// Removes least recently used entries not in use (nor `keeping`) until `extra` more bytes fit.
    /// - Returns: the names removed.
    @discardableResult
    func evict(toFit extra: Int64, keeping: Set<String>) -> [String] {
        lru.evict(limit: Int(clamping: limitBytes), toFit: Int(clamping: extra), keeping: keeping, remove: Self.removeUnlessLocked).map(\.name)
    }

    /// Removes every entry not in use; returns those removed and those kept because a fetch holds them.
    @discardableResult
    public func clear() -> (removed: [Listing], inUse: [Listing]) {
        var removed: [Listing] = [], inUse: [Listing] = []
        for entry in list() {
            if Self.removeUnlessLocked(folder + "/" + entry.name) { removed.append(entry) } else { inUse.append(entry) }
        }
        return (removed, inUse)
    }

    static func isEntryName(_ name: String) -> Bool {
        name.count == 16 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Removes the entry folder `dir` while holding its `.lock` (taken without waiting); false
    /// when a fetch holds it, or the folder could not be removed.
    static func removeUnlessLocked(_ dir: String) -> Bool {
        let lock = open(dir + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { return LRUFolder.removeFolder(dir) }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return false }
        return LRUFolder.removeFolder(dir)
    }
}
