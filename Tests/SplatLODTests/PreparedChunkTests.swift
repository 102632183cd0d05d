// SplatLODTests — a cached tree's chunks kept as prepared blocks (`LODChunkStore` with
// `LODCache.preparedFolder`, written when the tree is stored and whenever a chunk is decoded): an
// opening maps them instead of decoding, and draws the very same splats; a damaged file is decoded
// again and replaced; the folder stays under its bound; a tree outside the cache is never written
// beside.
import Foundation
import RenderCore
import SceneIO
@testable import SplatRender
@testable import SplatLOD
import Testing
import TestSupport

struct PreparedChunkTests {
    /// A tree stored in a fresh cache (SH 1, 3000 splats, chunks of 1000).
    static func cachedTree() throws -> StreamedSOG {
        let dir = TestData.temporaryDirectory("prepared-chunks")
        let cache = LODCache(folder: dir.appendingPathComponent("cache").path)
        let path = try LODCacheTests.capture("a.ply", in: dir)
        let entry = try cache.store(try LODCacheTests.pyramid(), key: try LODCacheTests.key(path), chunkSplats: 1000)
        return try StreamedSOG.open(entry.metaPath)
    }

    /// Every chunk loaded frame-exact into a fresh store, and what it did.
    static func loadAll(_ sog: StreamedSOG, preparedLimit: Int? = nil) -> (store: LODChunkStore, loads: Int, mapped: Int) {
        let store = LODChunkStore(sog: sog, cacheBytes: 1 << 30, realtime: false, preparedFolder: LODCache.preparedFolder(forTree: sog.file),
                                  preparedLimit: preparedLimit)
        store.load(Array(0..<sog.chunks.count))
        let (loads, mapped) = store.withLock { ($0.loads, $0.mappedLoads) }
        return (store, loads, mapped)
    }

    /// Every block of every (leaf, level) the store holds, as bytes, in tree order.
    static func blockBytes(_ store: LODChunkStore, _ sog: StreamedSOG) -> [[UInt8]] {
        var pairs: [(node: Int, level: Int)] = []
        for n in sog.nodes.indices { for l in 0..<sog.levelCount where store.chunk(node: n, level: l) >= 0 { pairs.append((n, l)) } }
        var blocks: [PreparedSplats] = []
        store.blocks(pairs[...], into: &blocks)
        return blocks.map { b in
            let assembly = PreparedSplats(assemblyCapacity: 8, shDegree: b.shDegree)
            assembly.assemble([b])
            var out: [UInt8] = []
            out += UnsafeRawBufferPointer(start: assembly.fields, count: PreparedSplats.fieldCount * assembly.fieldStride * 4)
            out += UnsafeRawBufferPointer(start: assembly.rest, count: max(1, assembly.paddedCount * assembly.restCount * 3) * 2)
            out += UnsafeRawBufferPointer(start: assembly.sourceIndex, count: assembly.count * 4)
            return out
        }
    }

    @Test("a stored tree comes with its chunks' prepared blocks: its first opening maps them all, the decoded bytes")
    func storedTreeMaps() throws {
        let sog = try Self.cachedTree()
        let folder = try #require(LODCache.preparedFolder(forTree: sog.file))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.filter { $0.hasSuffix(".blocks") }.count == sog.chunks.count, "\(names)")
        let opened = Self.loadAll(sog)
        #expect(opened.loads == sog.chunks.count && opened.mapped == sog.chunks.count)
        let decoding = LODChunkStore(sog: sog, cacheBytes: 1 << 30, realtime: false)
        decoding.load(Array(0..<sog.chunks.count))
        #expect(Self.blockBytes(opened.store, sog) == Self.blockBytes(decoding, sog))
    }

    @Test("chunks without prepared blocks are decoded once, then mapped: the same bytes; the cache counts them")
    func secondOpeningMaps() throws {
        let sog = try Self.cachedTree()
        let folder = try #require(LODCache.preparedFolder(forTree: sog.file))
        try FileManager.default.removeItem(atPath: folder)
        // A writer killed mid-write left a temporary file (pid 2^22+1 exceeds Linux's pid_max,
        // so no process has it); a live one's is kept.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/.tmp-4194305-0.blocks"))
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/.tmp-1-0.blocks"))
        let first = Self.loadAll(sog)
        #expect(first.loads == sog.chunks.count && first.mapped == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.filter { $0.hasSuffix(".blocks") && !$0.hasPrefix(".") }.count == sog.chunks.count, "\(files)")
        #expect(files.filter { $0.hasPrefix(".tmp-") } == [".tmp-1-0.blocks"], "\(files)")
        try FileManager.default.removeItem(atPath: folder + "/.tmp-1-0.blocks")
        let second = Self.loadAll(sog)
        #expect(second.loads == sog.chunks.count && second.mapped == sog.chunks.count)
        // The reference: a store that decodes (no prepared folder).
        let decoding = LODChunkStore(sog: sog, cacheBytes: 1 << 30, realtime: false)
        decoding.load(Array(0..<sog.chunks.count))
        let reference = Self.blockBytes(decoding, sog)
        #expect(!reference.isEmpty)
        #expect(Self.blockBytes(first.store, sog) == reference)
        #expect(Self.blockBytes(second.store, sog) == reference)
        // The cache counts the prepared blocks in its entry's bytes.
        let cache = LODCache(folder: ((sog.file as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
        let manifestBytes = try #require(Manifest.read((sog.file as NSString).deletingLastPathComponent + "/entry.json")).bytes
        #expect(cache.usedBytes == manifestBytes + LODCache.preparedBytes(inEntry: (sog.file as NSString).deletingLastPathComponent))
        #expect(cache.usedBytes > manifestBytes)
    }

    @Test("a damaged prepared file is decoded again and replaced; the blocks are the decoded ones")
    func damagedFileIsReplaced() throws {
        let sog = try Self.cachedTree()
        let folder = try #require(LODCache.preparedFolder(forTree: sog.file))
        _ = Self.loadAll(sog)
        let reference = Self.blockBytes(Self.loadAll(sog).store, sog)
        let victim = folder + "/0.blocks"
        let whole = try Data(contentsOf: URL(fileURLWithPath: victim))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: victim))
        let again = Self.loadAll(sog)
        #expect(again.mapped == sog.chunks.count - 1)
        #expect(Self.blockBytes(again.store, sog) == reference)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == whole, "rewritten whole")
        #expect(Self.loadAll(sog).mapped == sog.chunks.count)
    }

    @Test("the prepared blocks stay under their bound: chunks beyond it are decoded each time")
    func bounded() throws {
        let sog = try Self.cachedTree()
        let folder = try #require(LODCache.preparedFolder(forTree: sog.file))
        try FileManager.default.removeItem(atPath: folder)
        let sizes = (0..<sog.chunks.count).map { c in
            PreparedBlockFile.fileBytes(counts: Self.loadAll(sog, preparedLimit: 0).store.users[c].map { $0.range.count }, shDegree: sog.shDegree)
        }
        #expect(RegularFile.bytes(inFolder: folder) == 0, "a bound of 0 writes nothing")
        let limit = sizes[0] + sizes[1] + sizes[2] / 2   // room for two chunks' files, not three
        let first = Self.loadAll(sog, preparedLimit: limit)
        #expect(first.mapped == 0)
        let kept = RegularFile.bytes(inFolder: folder)
        #expect(kept <= limit && kept > 0)
        #expect(Self.loadAll(sog, preparedLimit: limit).mapped == (try FileManager.default.contentsOfDirectory(atPath: folder)).count)
        #expect(RegularFile.bytes(inFolder: folder) == kept, "nothing more written at the bound")
    }

    @Test("a tree outside the cache (a user's own streamed SOG) gets nothing written beside it")
    func userTreeIsNotWritten() throws {
        let dir = TestData.temporaryDirectory("prepared-user-tree")
        let meta = dir.appendingPathComponent("tree/lod-meta.json").path
        try StreamedSOGWriter.write(try LODCacheTests.pyramid(), to: meta, chunkSplats: 1000)
        let sog = try StreamedSOG.open(meta)
        #expect(LODCache.preparedFolder(forTree: sog.file) == nil)
        let before = try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted()
        _ = Self.loadAll(sog)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: dir.path).sorted() == before)
    }
}
