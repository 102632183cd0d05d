// SplatLOD — LODCache+OutOfCore: a capture too large to hold stored as a cache entry by the
// out-of-core build, read from its file in a stream. The entry appears as a whole or not at all,
// as `store` makes it: the tree is written under `FOLDER/.build-KEY` (the builder's working
// files beside it, `..build-KEY.lod-build`), `entry.json` last, then renamed into place.
// Resumable across processes: the build holds `.build-KEY.lock` (flock), and one stopped or
// killed leaves its working files for the next build of the same key to continue from its
// finished regions (`OutOfCoreBuilder`); a second process building the same key meanwhile builds
// on its own under `-PID` names. Working files nobody resumes go after
// `abandonedBuildAge` (`removeAbandonedBuilds`), or with `splatframe cache clear`.
import Foundation
import RenderCore
import SceneIO

extension LODCache {
    /// Bytes an out-of-core tree of `splats` splats with `shDegree` bands is made room for before
    /// it is built (as `estimatedBytes`: all levels ≈ twice the finest); one that turns out larger
    /// than the limit is removed after.
    static func estimatedBytes(splats: Int, shDegree: Int) -> Int { 2 * splats * (shDegree > 0 ? 32 : 12) }

    /// Builds `input`'s tree out of core (`OutOfCoreBuilder`, within `options.maxMemoryBytes`) as
    /// `key`'s entry, making room by removing least recently used entries, and returns it with
    /// what the build did. An entry another process finished first is kept and returned instead.
    /// `splats`, `shDegree`: the capture's, for the room to make.
    /// - Throws: `LODCacheError` (nothing is left behind); `LODBuildError.cancelled` when
    ///   `cancelled` said stop; `SceneIOError` when the input cannot be read.
    public func storeOutOfCore(input: String, key: Key, splats: Int, shDegree: Int, options: OutOfCoreBuilder.Options,
                               cancelled: (@Sendable () -> Bool)? = nil,
                               progress: (@Sendable (OutOfCoreBuilder.Progress) -> Void)? = nil) throws -> (Entry, OutOfCoreBuilder.Result) {
        var options = options
        options.shRows = LODCache.chunkOptions.shRows
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw LODCacheError.unwritable(folder: folder, reason: Self.reason(error))
        }
        guard access(folder, W_OK) == 0 else { throw LODCacheError.unwritable(folder: folder, reason: "the folder is read-only") }
        removeAbandonedBuilds()
        let estimate = Self.estimatedBytes(splats: splats, shDegree: shDegree)
        guard estimate <= limitBytes else { throw LODCacheError.tooLarge(folder: folder, bytes: estimate, limit: limitBytes) }
        evict(toFit: estimate)

        // The key's build lock: held, the build resumes what an earlier one left; else another
        // process is building this key, and this one builds on its own (not resumable).
        let lock = open(folder + "/.build-\(key.name).lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        let resumable = lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0
        defer { if lock >= 0 { close(lock) } }
        let suffix = resumable ? "" : "-\(getpid())"
        let building = folder + "/.build-\(key.name)\(suffix)"
        let final = folder + "/" + key.name
        let working = folder + "/..build-\(key.name)\(suffix).lod-build"
        func clean() { try? fm.removeItem(atPath: building); try? fm.removeItem(atPath: working) }
        func finished() { if resumable { unlink(folder + "/.build-\(key.name).lock") } }
        do {
            // The tree's folder is written afresh; the working files are the builder's to resume
            // (it starts them afresh when they are another input's or options').
            try? fm.removeItem(atPath: building)
            if !resumable { try? fm.removeItem(atPath: working) }
            let result = try OutOfCoreBuilder.build(input: input, output: building + "/lod-meta.json", options: options,
                                                    cancelled: cancelled, progress: progress)
            let manifest = try Manifest(key: key.text, captureSplats: result.counts.first ?? 0, folder: building)
            guard manifest.bytes <= limitBytes else {
                clean()
                throw LODCacheError.tooLarge(folder: folder, bytes: manifest.bytes, limit: limitBytes)
            }
            try manifest.write(building + "/entry.json")
            let prepared = Self.prepareBlocks(inBuilding: building, threads: options.threads, limit: limitBytes - manifest.bytes, cancelled: cancelled)
            if rename(building, final) != 0 {
                clean()
                if let e = entry(key) { return (e, result) }
                throw LODCacheError.unwritable(folder: folder, reason: "cannot rename the entry into place: \(String(cString: strerror(errno)))")
            }
            evict(toFit: 0, keeping: key.name)
            finished()
            return (Entry(metaPath: final + "/lod-meta.json", captureSplats: manifest.captureSplats, bytes: manifest.bytes + prepared), result)
        } catch let e as LODCacheError {
            clean(); throw e
        } catch let e as LODBuildError {
            // Stopped (the window closed): the working files stay for the next build to resume.
            if case .cancelled = e, resumable { try? fm.removeItem(atPath: building) } else { clean() }
            throw e
        } catch let e as SceneIOError {
            clean()
            // The input's own errors stand; the cache folder's become the cache's (built elsewhere then).
            if case .unwritable = e { throw LODCacheError.unwritable(folder: folder, reason: "\(e)") }
            throw e
        } catch {
            clean()
            throw LODCacheError.unwritable(folder: folder, reason: Self.reason(error))
        }
    }
}
