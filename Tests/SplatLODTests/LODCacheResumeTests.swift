// The level-of-detail cache's out-of-core build across processes' lifetimes: a build stopped part
// way (the window closed) is continued by the next from its finished regions; its working files
// are listed, kept while fresh and removed when stale or cleared, never while a build holds them.
import Foundation
import RenderCore
@testable import SplatLOD
import Testing
import TestSupport

@Suite("Level-of-detail cache: resumable builds")
struct LODCacheResumeTests {
    @Test("a cache build stopped part way resumes from its finished regions and stores the same tree")
    func resumes() throws {
        let dir = TestData.temporaryDirectory("lodresume")
        let (cloud, path) = try OutOfCoreBuilderTests.capture(20_000, in: dir)
        let cache = LODCache(folder: dir.path + "/cache")
        let key = try LODCache.key(for: path, recipe: CaptureLOD.recipe)
        let finished = RegionCount()
        #expect(throws: LODBuildError.cancelled) {
            _ = try cache.storeOutOfCore(input: path, key: key, splats: cloud.count, shDegree: cloud.shDegree,
                                         options: OutOfCoreBuilderTests.options(), cancelled: { finished.value >= 3 },
                                         progress: { p in if p.phase == .building { finished.raise(to: p.regionsDone) } })
        }
        #expect(cache.entry(key) == nil)
        let partial = cache.partialBuilds()
        #expect(partial.count == 1 && partial.first?.key == key.name && partial.first?.source == path && (partial.first?.bytes ?? 0) > 0,
                "\(partial)")
        // A fresh stopped build survives the next store's sweep; the next build of the key resumes it.
        cache.removeAbandonedBuilds()
        let (entry, result) = try cache.storeOutOfCore(input: path, key: key, splats: cloud.count, shDegree: cloud.shDegree,
                                                       options: OutOfCoreBuilderTests.options())
        #expect(result.regions == 4 && result.regionsReused == 3 && result.regionsBuilt == 1)
        #expect(cache.entry(key)?.metaPath == entry.metaPath && cache.partialBuilds().isEmpty)
        // The same tree as a build never stopped (chunks encoded as the cache encodes them: SH rows).
        try OutOfCoreBuilderTests.inMemory(cloud, chunkSplats: 4096, to: dir.path + "/memory", chunkOptions: LODCache.chunkOptions)
        let memory = try OutOfCoreBuilderTests.files(dir.path + "/memory")
        let stored = try OutOfCoreBuilderTests.files((entry.metaPath as NSString).deletingLastPathComponent)
        for (name, bytes) in memory { #expect(stored[name] == bytes, "\(name) differs") }
        // Nothing of the build is left beside the entry.
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("stopped builds go when stale or cleared, never while a build holds their lock")
    func sweeps() throws {
        let dir = TestData.temporaryDirectory("lodresume")
        let cache = LODCache(folder: dir.path)
        let key = "0123456789abcdef", other = "fedcba9876543210"
        let fm = FileManager.default
        for k in [key, other] {
            try fm.createDirectory(atPath: dir.path + "/..build-\(k).lod-build", withIntermediateDirectories: true)
            try Data("out-of-core 1|v9|/captures/\(k).ply|10|20|recipe".utf8).write(to: URL(fileURLWithPath: dir.path + "/..build-\(k).lod-build/key"))
        }
        #expect(cache.partialBuilds().map(\.source) == ["/captures/\(key).ply", "/captures/\(other).ply"])
        // Fresh: kept.
        cache.removeAbandonedBuilds()
        #expect(cache.partialBuilds().count == 2)
        // Stale: removed, unless a build holds its lock.
        let old = Date(timeIntervalSinceNow: -LODCache.abandonedBuildAge - 60)
        for k in [key, other] { try fm.setAttributes([.modificationDate: old], ofItemAtPath: dir.path + "/..build-\(k).lod-build") }
        let held = open(dir.path + "/.build-\(other).lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        // flock locks belong to the open file description: a second open in this process is refused as another process's would be.
        cache.removeAbandonedBuilds()
        #expect(cache.partialBuilds().map(\.key) == [other])
        #expect(!fm.fileExists(atPath: dir.path + "/.build-\(key).lock"))
        close(held)
        _ = cache.clear()
        #expect(cache.partialBuilds().isEmpty)
        #expect(try fm.contentsOfDirectory(atPath: dir.path).isEmpty)
        // Names that are not builds are left alone; a `-PID` build's process decides for it.
        #expect(LODCache.buildName(".build-\(key)-123")?.pid == 123 && LODCache.buildName("..build-\(key).lod-build")?.pid == nil)
        #expect(LODCache.buildName(".build-notakey") == nil && LODCache.buildName(key) == nil && LODCache.buildName(".build-\(key)-x") == nil)
    }
}
