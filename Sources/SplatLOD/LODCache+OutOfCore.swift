// SplatLOD — LODCache+OutOfCore: a capture too large to hold stored as a cache entry by the
// out-of-core build, read from its file in a stream. The entry appears as a whole or not at all,
// as `store` makes it: the tree is written under `FOLDER/.build-KEY-PID` (the builder's working
// files beside it, `..build-KEY-PID.lod-build`), `entry.json` last, then renamed into place.
// Not resumable across processes: a killed build's folders are removed by the next store.
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
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw LODCacheError.unwritable(folder: folder, reason: Self.reason(error))
        }
        guard access(folder, W_OK) == 0 else { throw LODCacheError.unwritable(folder: folder, reason: "the folder is read-only") }
        removeAbandonedBuilds()
        let estimate = Self.estimatedBytes(splats: splats, shDegree: shDegree)
        guard estimate <= limitBytes else { throw LODCacheError.tooLarge(folder: folder, bytes: estimate, limit: limitBytes) }
        evict(toFit: estimate)

        let building = folder + "/.build-\(key.name)-\(getpid())"
        let final = folder + "/" + key.name
        let working = folder + "/..build-\(key.name)-\(getpid()).lod-build"
        func clean() { try? fm.removeItem(atPath: building); try? fm.removeItem(atPath: working) }
        do {
            clean()
            let result = try OutOfCoreBuilder.build(input: input, output: building + "/lod-meta.json", options: options,
                                                    cancelled: cancelled, progress: progress)
            let manifest = try Manifest(key: key.text, captureSplats: result.counts.first ?? 0, folder: building)
            guard manifest.bytes <= limitBytes else {
                clean()
                throw LODCacheError.tooLarge(folder: folder, bytes: manifest.bytes, limit: limitBytes)
            }
            try manifest.write(building + "/entry.json")
            if rename(building, final) != 0 {
                clean()
                if let e = entry(key) { return (e, result) }
                throw LODCacheError.unwritable(folder: folder, reason: "cannot rename the entry into place: \(String(cString: strerror(errno)))")
            }
            evict(toFit: 0, keeping: key.name)
            return (Entry(metaPath: final + "/lod-meta.json", captureSplats: manifest.captureSplats, bytes: manifest.bytes), result)
        } catch let e as LODCacheError {
            clean(); throw e
        } catch let e as LODBuildError {
            clean(); throw e
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
