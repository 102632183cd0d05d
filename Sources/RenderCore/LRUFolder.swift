// RenderCore — LRUFolder: a folder of cache entries (one subfolder each) bounded in bytes, the
// least recently used going first: the mechanism the level-of-detail cache (SplatLOD) and the
// download cache (Downloads) share; each says what its entries are, what they weigh, and whether
// one may go now (a download in progress may not).
//
// Last use is an entry folder's modification time, bumped by `touch` on every use (making a file
// in it bumps it too). Only names `isEntry` accepts are ever listed or removed, so a folder shared
// with other files is safe.
import Foundation

/// A folder of cache entries with a least-recently-used bound (see the file header).
public struct LRUFolder: Sendable {
    /// One entry: its folder's name, bytes and last use.
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let bytes: Int
        /// Seconds since 1970 (the folder's modification time).
        public let lastUse: Double
    }

    /// The folder holding the entries.
    public let path: String
    private let isEntry: @Sendable (String) -> Bool
    private let measure: @Sendable (String) -> Int

    /// - Parameters:
    ///   - isEntry: whether a name in the folder is an entry (anything else is never touched).
    ///   - bytes: an entry's bytes, given its folder's path.
    public init(path: String, isEntry: @escaping @Sendable (String) -> Bool, bytes: @escaping @Sendable (String) -> Int) {
        self.path = path; self.isEntry = isEntry; measure = bytes
    }

    /// The entries, least recently used first (none when the folder does not exist).
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter(isEntry).map { name in
            let dir = path + "/" + name
            var st = stat()
            let used = stat(dir, &st) == 0 ? Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9 : 0
            return Entry(name: name, bytes: measure(dir), lastUse: used)
        }.sorted { ($0.lastUse, $0.name) < ($1.lastUse, $1.name) }
    }

    /// Bytes the entries hold together.
    public var usedBytes: Int { entries().reduce(0) { $0 + $1.bytes } }

    /// Marks the entry folder at `dir` used now.
    public static func touch(_ dir: String) { _ = utimes(dir, nil) }

    /// Whether process `pid` no longer exists (never this process, nor a pid ≤ 0): what a cache
    /// asks before removing what a writer named by its pid left behind.
    public static func processIsGone(_ pid: Int32) -> Bool {
        pid > 0 && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes least recently used entries until `extra` more bytes fit within `limit`: never one
    /// named in `keeping`, nor one `remove` declines (it returns false: in use, or it could not).
    /// - Returns: the entries removed, oldest first.
    @discardableResult
    public func evict(limit: Int, toFit extra: Int = 0, keeping: Set<String> = [],
                      remove: (String) -> Bool = LRUFolder.removeFolder) -> [Entry] {
        let list = entries()
        var used = list.reduce(0) { $0 + $1.bytes }
        var removed: [Entry] = []
        for entry in list where used + extra > limit && !keeping.contains(entry.name) {
            guard remove(path + "/" + entry.name) else { continue }
            used -= entry.bytes
            removed.append(entry)
        }
        return removed
    }

    /// Removes the folder at `dir` with everything in it; false when it is still there.
    public static func removeFolder(_ dir: String) -> Bool {
        try? FileManager.default.removeItem(atPath: dir)
        return !FileManager.default.fileExists(atPath: dir)
    }
}
