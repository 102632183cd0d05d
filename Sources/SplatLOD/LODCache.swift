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
import SplatRender
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
    public static let builderVersion = 10
    /// How the cache's chunks are encoded: SH as splatframe's rows (`SOGWriter.Options.shRows`),
    /// decoded several times faster than a palette image — the whole 4M room's finest level
    /// spent three quarters of its WebP decoding on SH palettes of one entry per splat.
    public static var chunkOptions: SOGWriter.Options { var o = SOGWriter.Options(); o.shRows = true; return o }
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
        return Entry(metaPath: dir + "/lod-meta.json", captureSplats: manifest.captureSplats, bytes: manifest.bytes + Self.preparedBytes(inEntry: dir))
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
            try StreamedSOGWriter.write(pyramid, to: building + "/lod-meta.json", chunkSplats: chunkSplats, options: Self.chunkOptions,
                                        threads: threads, cancelled: cancelled, progress: progress)
            let manifest = try Manifest(key: key.text, captureSplats: pyramid.levels.first?.count ?? 0, folder: building)
            guard manifest.bytes <= limitBytes else {
                try? fm.removeItem(atPath: building)
                throw LODCacheError.tooLarge(folder: folder, bytes: manifest.bytes, limit: limitBytes)
            }
            try manifest.write(building + "/entry.json")
            let prepared = Self.prepareBlocks(inBuilding: building, threads: threads, limit: limitBytes - manifest.bytes, cancelled: cancelled)
            if rename(building, final) != 0 {
                // Another process stored the same tree first (the folder is not empty): keep theirs.
                try? fm.removeItem(atPath: building)
                if let e = entry(key) { return e }
                throw LODCacheError.unwritable(folder: folder, reason: "cannot rename the entry into place: \(String(cString: strerror(errno)))")
            }
            evict(toFit: 0, keeping: key.name)
            return Entry(metaPath: final + "/lod-meta.json", captureSplats: manifest.captureSplats, bytes: manifest.bytes + prepared)
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
    /// (0 for an entry without one) and the prepared blocks kept beside the tree, last use from the
    /// folder's modification time.
    var lru: LRUFolder {
        LRUFolder(path: folder, isEntry: Self.isEntryName,
                  bytes: { (Manifest.read($0 + "/entry.json")?.bytes ?? 0) + Self.preparedBytes(inEntry: $0) })
    }

    /// The folder where the chunk store keeps decoded chunks' prepared blocks
    /// (`PreparedBlockFile`) for the tree at `metaPath`: `ENTRY/prepared` when the tree is an entry
    /// of a level-of-detail cache (its folder holds an `entry.json`: immutable, and ours to
    /// write), nil for any other streamed SOG (a user's own folder is never written).
    /// The files are not listed in `entry.json`: a missing or damaged one is decoded and written again.
    public static func preparedFolder(forTree metaPath: String) -> String? {
        let dir = (metaPath as NSString).deletingLastPathComponent
        guard isEntryName((dir as NSString).lastPathComponent), FileManager.default.fileExists(atPath: dir + "/entry.json") else { return nil }
        return dir + "/prepared"
    }

    /// Decodes every chunk of the tree just written to `building` once (twice `threads` chunks at a
    /// time, side by side on the machine's cores: what is held at once), and
    /// keeps its prepared blocks in `building/prepared` (at most `limit` bytes, and the chunk
    /// cache's default bound; coarsest level first: every opening uses those), so that even the
    /// first opening after the build maps its chunks rather than decodes them (the 4M room: ~1.5 s
    /// more on a build of minutes). Best effort, and after `entry.json` is written (the files are
    /// not listed there): stops when `cancelled` says so, the tree is whole either way. Returns
    /// the bytes written.
    @discardableResult
    static func prepareBlocks(inBuilding building: String, threads: Int, limit: Int, cancelled: (@Sendable () -> Bool)?) -> Int {
        let folder = building + "/prepared"
        guard limit > 0, let sog = try? StreamedSOG.open(building + "/lod-meta.json") else { return 0 }
        let store = LODChunkStore(sog: sog, cacheBytes: 0, realtime: false, preparedFolder: folder,
                                  preparedLimit: min(limit, LODOptions.defaultCacheBytes))
        let order = sog.chunks.indices.sorted { (sog.chunks[$0].level ?? -1, $1) > (sog.chunks[$1].level ?? -1, $0) }
        let batch = max(1, threads) * 2
        for start in stride(from: 0, to: order.count, by: batch) where cancelled?() != true {
            store.load(Array(order[start..<min(order.count, start + batch)]))
        }
        return RegularFile.bytes(inFolder: folder)
    }

    /// Bytes of the prepared blocks kept in the entry folder `entry`.
    static func preparedBytes(inEntry entry: String) -> Int { RegularFile.bytes(inFolder: entry + "/prepared") }

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

    /// Removes every entry and every build not in progress (stopped ones too); returns the entries removed.
    @discardableResult
    public func clear() -> [Listing] {
        let all = list()
        removeAbandonedBuilds(olderThan: 0)
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

    /// How long the working files of a stopped build are kept for a resume (s): a week.
    public static let abandonedBuildAge: Double = 7 * 24 * 3600

    /// Removes what builds left behind: `-PID` builds whose process is gone (killed), and
    /// resumable builds (`.build-KEY`, `..build-KEY.lod-build`, their `.lock`) that no process is
    /// building and that were last touched more than `olderThan` seconds ago (default
    /// `abandonedBuildAge`; 0: all of them).
    func removeAbandonedBuilds(olderThan age: Double = LODCache.abandonedBuildAge) {
        let fm = FileManager.default
        let now = Date().timeIntervalSince1970
        for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let build = Self.buildName(name) else { continue }
            let path = folder + "/" + name
            if let pid = build.pid {
                guard LRUFolder.processIsGone(pid) else { continue }
                try? fm.removeItem(atPath: path)
                continue
            }
            var st = stat()
            guard stat(path, &st) == 0, now - Double(st.st_mtim.tv_sec) >= age else { continue }
            let lockPath = folder + "/.build-\(build.key).lock"
            let lock = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }   // being built now
            if path != lockPath { try? fm.removeItem(atPath: path) }
            // The lock goes with the last of its build's folders.
            let left = [".build-\(build.key)", "..build-\(build.key).lod-build"].contains { fm.fileExists(atPath: folder + "/" + $0) }
            if !left { unlink(lockPath) }
        }
    }

    /// A build's file or folder name — `.build-KEY[-PID]`, `..build-KEY[-PID].lod-build`,
    /// `.build-KEY.lock` — parsed, or nil for anything else.
    static func buildName(_ name: String) -> (key: String, pid: Int32?)? {
        var rest = Substring(name)
        if rest.hasPrefix("..build-") { rest = rest.dropFirst(8) } else if rest.hasPrefix(".build-") { rest = rest.dropFirst(7) } else { return nil }
        if rest.hasSuffix(".lod-build") { rest = rest.dropLast(10) } else if rest.hasSuffix(".lock") { rest = rest.dropLast(5) }
        let key = String(rest.prefix(16))
        guard isEntryName(key) else { return nil }
        let tail = rest.dropFirst(16)
        if tail.isEmpty { return (key, nil) }
        guard tail.first == "-", let pid = Int32(tail.dropFirst()), pid > 0 else { return nil }
        return (key, pid)
    }

    /// Builds stopped before they finished, kept for a resume: their key, the capture they build
    /// ("?" when unreadable), the bytes their working files hold and when they were last touched
    /// (seconds since 1970).
    public func partialBuilds() -> [(key: String, source: String, bytes: Int, lastUse: Double)] {
        let fm = FileManager.default
        return ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).sorted().compactMap { name in
            guard name.hasSuffix(".lod-build"), let build = Self.buildName(name), build.pid == nil else { return nil }
            let path = folder + "/" + name
            var bytes = 0
            for file in fm.enumerator(atPath: path)?.allObjects as? [String] ?? [] { bytes += RegularFile.bytes(path + "/" + file) ?? 0 }
            var st = stat()
            let time = stat(path, &st) == 0 ? Double(st.st_mtim.tv_sec) : 0
            // The builder's key: `out-of-core 1|` and the capture's key (`OutOfCoreBuilder.key`).
            let text = fm.contents(atPath: path + "/key").map { String(decoding: $0, as: UTF8.self) } ?? ""
            let capture = text.split(separator: "|", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            return (build.key, Self.source(ofKey: capture) ?? "?", bytes, time)
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
        for rel in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            guard let size = RegularFile.bytes(folder + "/" + rel) else { continue }
            files[rel] = size
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
            guard !rel.contains(".."), RegularFile.bytes(folder + "/" + rel) == size else { return false }
        }
        return true
    }
}
