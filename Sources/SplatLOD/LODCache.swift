// SplatLOD — LODCache: level-of-detail trees of plain captures kept on disk as streamed SOGs, so
// a capture opened again draws under its budget at once.
//
// Layout: `FOLDER/KEY/lod-meta.json` + chunk folders + `entry.json`, KEY the `StableHash` of
// `builder version | absolute path | byte size | modification time (ns) | recipe` (how the tree is
// built: levels, leaf and chunk sizes). An entry is written under `FOLDER/.build-KEY-PID`, its `entry.json` (the key text,
// the capture's splat count and every file's size) last, and renamed into place: a reader sees a
// whole entry or none. An entry whose files no longer have the sizes `entry.json` lists (truncated,
// damaged) is removed and built again, never drawn.
// Bounded: before a store, least recently used entries (the folder's modification time, bumped on
// every use) go until the new one fits `limitBytes`; a tree larger than the limit is not cached.
// The bound is RenderCore's `LRUFolder`, which the download cache shares.
// Only names this cache makes are ever removed (16 hex digits, `.build-…`), so a folder shared
// with other files is safe.
import Foundation
import RenderCore
import SceneIO
import Workers

/// Why the cache could not hold a tree (the caller builds it in memory instead).
public enum LODCacheError: Error, Equatable, CustomStringConvertible {
    /// The cache folder cannot be created or written (read-only, permissions, disk full).
    case unwritable(folder: String, reason: String)
    /// The tree needs more than the cache's limit.
    case tooLarge(folder: String, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case let .unwritable(f, r): return "\(f): cannot cache the level-of-detail tree: \(r)"
        case let .tooLarge(f, b, l):
            return "\(f): the level-of-detail tree (\(b >> 20) MB) is larger than the cache's limit (\(l >> 20) MB)"
        }
    }
}

/// A folder of level-of-detail trees (see the file header).
public struct LODCache: Sendable, Equatable {
    /// Bumped whenever `LODBuilder` or `StreamedSOGWriter` write a different tree for the same input.
    public static let builderVersion = 9
    /// The default bound: 8 GiB.
    public static let defaultLimitBytes = 8 << 30

    /// The folder (created on the first store).
    public let folder: String
    /// Most bytes the entries may hold together.
    public var limitBytes: Int

    public init(folder: String, limitBytes: Int = LODCache.defaultLimitBytes) {
        self.folder = folder; self.limitBytes = max(0, limitBytes)
    }

    /// `$XDG_CACHE_HOME/splatframe/lod`, else `$HOME/.cache/splatframe/lod`; nil without either.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let x = environment["XDG_CACHE_HOME"], !x.isEmpty { return x + "/splatframe/lod" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.cache/splatframe/lod" }
        return nil
    }

    /// What an entry is keyed by.
    public struct Key: Sendable, Equatable {
        /// The text hashed (stored in `entry.json` and compared, so a hash collision is not a hit).
        public let text: String
        /// The entry's folder name: 16 hex digits.
        public var name: String { StableHash.hex(text) }
    }

    /// The key of `path`'s tree built by `recipe` (the builder's and writer's options, as text).
    /// - Throws: `SceneIOError.unreadable` when the file cannot be examined.
    public static func key(for path: String, recipe: String) throws -> Key {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        var st = stat()
        guard stat(absolute, &st) == 0 else {
            throw SceneIOError.unreadable(file: path, reason: String(cString: strerror(errno)))
        }
        let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        return Key(text: "v\(builderVersion)|\(absolute)|\(st.st_size)|\(mtime)|\(recipe)")
    }

    /// A complete entry: its lod-meta.json and the capture's splat count.
    public struct Entry: Sendable, Equatable {
        public let metaPath: String
        public let captureSplats: Int
        public let bytes: Int
    }

    /// The entry for `key` when it is whole (its files have the sizes its `entry.json` lists);
    /// marks it used. A damaged entry is removed (so it is built again) and nil returned.
    public func entry(_ key: Key) -> Entry? {
        let dir = folder + "/" + key.name
        guard FileManager.default.fileExists(atPath: dir) else { return nil }
        guard let manifest = Manifest.read(dir + "/entry.json"), manifest.key == key.text, manifest.filesMatch(in: dir) else {
            try? FileManager.default.removeItem(atPath: dir)
            return nil
        }
        LRUFolder.touch(dir)
        return Entry(metaPath: dir + "/lod-meta.json", captureSplats: manifest.captureSplats, bytes: manifest.bytes)
    }

    /// Writes `pyramid` as `key`'s entry (its chunks encoded on `threads` threads), making room by
    /// removing least recently used entries, and returns it. An entry another process finished
    /// first is kept and returned instead.
    /// - Throws: `LODCacheError` (nothing is left behind), or `SceneIOError.cancelled`.
    public func store(_ pyramid: LODPyramid, key: Key, chunkSplats: Int = StreamedSOGWriter.defaultChunkSplats,
                      threads: Int = CoreCount.available, cancelled: (@Sendable () -> Bool)? = nil,
                      progress: ((Int, Int) -> Void)? = nil) throws -> Entry {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw LODCacheError.unwritable(folder: folder, reason: Self.reason(error))
        }
        guard access(folder, W_OK) == 0 else { throw LODCacheError.unwritable(folder: folder, reason: "the folder is read-only") }
        removeAbandonedBuilds()
        let estimate = Self.estimatedBytes(pyramid)
        guard estimate <= limitBytes else { throw LODCacheError.tooLarge(folder: folder, bytes: estimate, limit: limitBytes) }
        evict(toFit: estimate)

        let building = folder + "/.build-\(key.name)-\(getpid())"
        let final = folder + "/" + key.name
        do {
            try? fm.removeItem(atPath: building)
            try StreamedSOGWriter.write(pyramid, to: building + "/lod-meta.json", chunkSplats: chunkSplats, threads: threads,
                                        cancelled: cancelled, progress: progress)
            let manifest = try Manifest(key: key.text, captureSplats: pyramid.levels.first?.count ?? 0, folder: building)
            guard manifest.bytes <= limitBytes else {
                try? fm.removeItem(atPath: building)
                throw LODCacheError.tooLarge(folder: folder, bytes: manifest.bytes, limit: limitBytes)
            }
            try manifest.write(building + "/entry.json")
            if rename(building, final) != 0 {
                // Another process stored the same tree first (the folder is not empty): keep theirs.
                try? fm.removeItem(atPath: building)
                if let e = entry(key) { return e }
                throw LODCacheError.unwritable(folder: folder, reason: "cannot rename the entry into place: \(String(cString: strerror(errno)))")
            }
            evict(toFit: 0, keeping: key.name)
            return Entry(metaPath: final + "/lod-meta.json", captureSplats: manifest.captureSplats, bytes: manifest.bytes)
        } catch let e as LODCacheError {
            try? fm.removeItem(atPath: building)
            throw e
        } catch SceneIOError.cancelled(let f) {
            try? fm.removeItem(atPath: building)
            throw SceneIOError.cancelled(file: f)
        } catch {
            try? fm.removeItem(atPath: building)
            throw LODCacheError.unwritable(folder: folder, reason: Self.reason(error))
        }
    }

    /// The entries as the shared least-recently-used mechanism sees them: bytes from `entry.json`
    /// (0 for an entry without one), last use from the folder's modification time.
    var lru: LRUFolder {
        LRUFolder(path: folder, isEntry: Self.isEntryName, bytes: { Manifest.read($0 + "/entry.json")?.bytes ?? 0 })
    }

    /// Bytes the entries hold, by their `entry.json`.
    public var usedBytes: Int { lru.usedBytes }

    /// Removes least recently used entries (never `keeping`) until `extra` more bytes fit the limit.
    func evict(toFit extra: Int, keeping: String? = nil) {
        lru.evict(limit: limitBytes, toFit: extra, keeping: keeping.map { [$0] } ?? [])
    }

    /// One entry as `splatframe cache` lists it.
    public struct Listing: Sendable, Equatable {
        /// The entry's folder name (16 hex digits).
        public let name: String
        /// The capture the tree was built from (absolute path), or "?" for an entry without a readable `entry.json`.
        public let source: String
        public let bytes: Int
        /// Seconds since 1970.
        public let lastUse: Double
    }

    /// The entries, least recently used first.
    public func list() -> [Listing] {
        lru.entries().map { e in
            let key = Manifest.read(folder + "/" + e.name + "/entry.json")?.key
            return Listing(name: e.name, source: key.flatMap(Self.source(ofKey:)) ?? "?", bytes: e.bytes, lastUse: e.lastUse)
        }
    }

    /// Removes every entry and every abandoned build; returns the entries removed.
    @discardableResult
    public func clear() -> [Listing] {
        let all = list()
        removeAbandonedBuilds()
        return all.filter { LRUFolder.removeFolder(folder + "/" + $0.name) }
    }

    /// The capture's path in a key's text (`v9|PATH|SIZE|MTIME|recipe`), or nil.
    static func source(ofKey text: String) -> String? {
        guard let bar = text.firstIndex(of: "|") else { return nil }
        let rest = text[text.index(after: bar)...]
        var search = rest.startIndex
        while let i = rest[search...].firstIndex(of: "|") {
            let fields = rest[rest.index(after: i)...].split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, !fields[0].isEmpty, fields[0].allSatisfy(\.isNumber), !fields[1].isEmpty,
               fields[1].allSatisfy({ $0.isNumber || $0 == "-" }) {
                return String(rest[..<i])
            }
            search = rest.index(after: i)
        }
        return nil
    }

    /// Removes `.build-KEY-PID` folders whose process is gone (a build that was killed).
    func removeAbandonedBuilds() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".build-") || name.hasPrefix("..build-") {
            let digits = name.split(separator: "-").last.map { String($0.prefix { $0.isNumber }) } ?? ""
            guard let pid = Int32(digits), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    static func isEntryName(_ name: String) -> Bool {
        name.count == 16 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Bytes a tree takes on disk, estimated low (measured: ~52 bytes a splat over all levels with
    /// SH bands 3, less with fewer): what is made room for before writing; a tree that turns out
    /// larger than the limit is removed after.
    static func estimatedBytes(_ p: LODPyramid) -> Int {
        p.counts.reduce(0, +) * ((p.levels.first?.shDegree ?? 0) > 0 ? 32 : 12)
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? SceneIOError { return "\(e)" }
        let ns = error as NSError
        if let posix = (ns.userInfo[NSUnderlyingErrorKey] as? NSError), posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return ns.localizedDescription
    }
}

/// `entry.json`: what an entry was built from and the size of every file in it.
struct Manifest: Codable, Equatable {
    var key: String
    var captureSplats: Int
    var bytes: Int
    var files: [String: Int]

    /// Lists every file under `folder` with its size.
    init(key: String, captureSplats: Int, folder: String) throws {
        self.key = key; self.captureSplats = captureSplats
        var files: [String: Int] = [:]
        let fm = FileManager.default
        for rel in try fm.subpathsOfDirectory(atPath: folder) {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: folder + "/" + rel, isDirectory: &isDir), !isDir.boolValue else { continue }
            files[rel] = (try fm.attributesOfItem(atPath: folder + "/" + rel)[.size] as? NSNumber)?.intValue ?? 0
        }
        self.files = files
        bytes = files.values.reduce(0, +)
    }

    static func read(_ path: String) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 64 << 20 else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    func write(_ path: String) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        try enc.encode(self).write(to: URL(fileURLWithPath: path))
    }

    /// Whether every listed file is there with its size (lod-meta.json among them).
    func filesMatch(in folder: String) -> Bool {
        guard files["lod-meta.json"] != nil else { return false }
        for (rel, size) in files {
            var st = stat()
            guard !rel.contains(".."), stat(folder + "/" + rel, &st) == 0, Int(st.st_size) == size else { return false }
        }
        return true
    }
}
