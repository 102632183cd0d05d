// SplatLOD — LODChunkStore: a streamed SOG's chunks, decoded on a background thread into render-ready
// blocks (one `PreparedSplats` per leaf and level), kept in an LRU cache bounded in bytes.
import Foundation
import RenderCore
import SceneIO
import SplatRender
import Workers

/// Loads and caches the chunks of a `StreamedSOG`.
///
/// A chunk (one SOG folder) is decoded whole through `SOGReader`, then cut into the ranges the
/// leaves use, each prepared on its own (`PreparedSplats(cloud, range:shDegree:)`), so that a frame
/// assembles its splats by plain copies. The decoded cloud itself is dropped at once.
///
/// - `.realtime` (the window): `loaderCount` background threads load what the frame loop last
///   asked for, each taking the most urgent chunk nobody is decoding; the frame loop never waits
///   (it reads what is loaded under a short lock).
/// - `.frameExact` (render, bench, export, tests): no thread of its own; `load(_:)` decodes a
///   frame's chunks side by side on the caller's cores, then inserts them in the given order, so
///   every frame depends on the eye path alone.
///
/// Decoding is what a still eye waits for: a chunk of 65k splats with SH 3 is ~1M pixels of
/// lossless WebP (its SH palette), about 0.1 s on one core; the 1M room's finest level is 16 of
/// them. Two decoders halve that wait on two cores.
///
/// With a `preparedFolder` (a tree in splatframe's own cache, `LODCache.preparedFolder`), a chunk's
/// blocks are also kept on disk once decoded (`PreparedBlockFile`, one file per chunk) and mapped
/// back the next time instead of decoded: the 4M room's still view, ~2 CPU-seconds of decoding and
/// page zeroing, becomes a few mappings. A file that does not map (missing, damaged, stale) is
/// decoded as before and written again. The folder holds at most `preparedLimit` bytes (by default
/// the chunk cache's bound: on disk as much as is kept in memory); chunks beyond it are decoded
/// each time (first written, first kept).
///
/// The cache holds at most `cacheBytes` of blocks, least recently used chunks evicted first —
/// except the chunks the current frame shows or asked for (pinned), which may take it over the
/// bound until the frame moves on. A chunk that fails to load is remembered (`failures`) and
/// never retried; its ranges are reported and skipped.
final class LODChunkStore: Sendable {
    /// A chunk's ranges in use: (leaf, level, range), from the file's tree.
    struct User { var node: Int, level: Int, range: StreamedSOG.Range }

    let sog: StreamedSOG
    /// SH degree of every block (the file's highest, at most 3).
    let shDegree: Int
    let cacheBytes: Int
    let realtime: Bool
    /// Where decoded chunks' blocks are kept on disk (`<chunk>.blocks`), nil for none.
    let preparedFolder: String?
    /// Most bytes `preparedFolder` may hold.
    let preparedLimit: Int
    /// Per chunk, the (leaf, level) ranges it holds.
    let users: [[User]]
    /// Per (leaf, level) at `n * levels + l`: the chunk and the index into `users[chunk]` (−1: none).
    private let slotChunk: [Int], slotIndex: [Int]

    /// State shared with the loader thread, behind `shared`'s lock.
    struct Shared {
        /// Per chunk: its blocks (parallel to `users[chunk]`; nil where a range fell outside it) when loaded.
        var blocks: [FrozenBlocks?]
        var bytes: [Int]
        var lastUse: [UInt64]
        var totalBytes = 0
        var failures: [String?]
        /// The frame loop's latest wishes, most urgent first, and the chunks it pins.
        var requests: [Int] = []
        var pinned: [Bool]
        /// Chunks a loader thread is decoding now.
        var loading: [Int] = []
        var tick: UInt64 = 0
        var stopping = false
        /// Whether the loader thread was started (`.realtime`, on the first request for a missing chunk).
        var started = false
        /// Chunks loaded since creation (for status and tests).
        var loads = 0
        /// Of `loads`, those mapped from prepared files rather than decoded.
        var mappedLoads = 0
        /// Bytes in `preparedFolder`, counted at creation, then with each file written.
        var preparedBytes = 0
        var evictions = 0
    }
    private let shared: Locked<Shared>
    /// The loader threads (`.realtime`), started on the first request for a missing chunk.
    private let threads: [BackgroundThread]
    /// Loader threads in `.realtime`: half the cores, at least 2 and at most 4.
    static let loaderCount = min(4, max(2, ProcessInfo.processInfo.activeProcessorCount / 2))

    init(sog: StreamedSOG, cacheBytes: Int, realtime: Bool, preparedFolder: String? = nil, preparedLimit: Int? = nil) {
        self.sog = sog
        self.preparedFolder = preparedFolder
        self.preparedLimit = max(0, preparedLimit ?? cacheBytes)
        shDegree = sog.shDegree
        self.cacheBytes = max(0, cacheBytes)
        self.realtime = realtime
        threads = realtime ? (0..<Self.loaderCount).map { BackgroundThread(name: "splatframe.lod\($0)") } : []
        var users = [[User]](repeating: [], count: sog.chunks.count)
        var slotChunk = [Int](repeating: -1, count: sog.nodes.count * sog.levelCount)
        var slotIndex = slotChunk
        for (n, node) in sog.nodes.enumerated() {
            for (l, r) in node.levels.enumerated() {
                guard let r else { continue }
                slotChunk[n * sog.levelCount + l] = r.chunk
                slotIndex[n * sog.levelCount + l] = users[r.chunk].count
                users[r.chunk].append(User(node: n, level: l, range: r))
            }
        }
        self.users = users; self.slotChunk = slotChunk; self.slotIndex = slotIndex
        let c = sog.chunks.count
        var initial = Shared(blocks: Array(repeating: nil, count: c), bytes: Array(repeating: 0, count: c),
                             lastUse: Array(repeating: 0, count: c), failures: sog.chunks.map(\.problem),
                             pinned: Array(repeating: false, count: c))
        initial.requests.reserveCapacity(c)
        if let preparedFolder {
            PreparedBlockFile.removeAbandonedTemporaries(in: preparedFolder)
            initial.preparedBytes = RegularFile.bytes(inFolder: preparedFolder)
        }
        shared = Locked(initial)
    }

    deinit { stop() }

    /// The chunk holding leaf `n`'s level `l` (−1 when the file names none).
    @inline(__always) func chunk(node n: Int, level l: Int) -> Int { slotChunk[n * sog.levelCount + l] }

    func withLock<T: Sendable>(_ body: (inout Shared) -> T) -> T {
        shared.withLock { body(&$0) }
    }

    // MARK: - The frame loop's side

    /// Copies the per-chunk state into the caller's arrays (sized to the chunk count): 1 loaded,
    /// 2 failed, 0 neither. Allocation-free.
    func snapshot(into state: inout [UInt8]) {
        shared.withLock { s in
            for c in state.indices {
                state[c] = s.blocks[c] != nil ? 1 : s.failures[c] != nil ? 2 : 0
            }
        }
    }

    /// Publishes the frame's wishes: `requests` (chunks in priority order) and the pinned chunks
    /// (`pins[c]`), marking them used now. Wakes the loader when something is missing.
    func request(_ requests: ArraySlice<Int>, pins: [Bool]) {
        let wake = shared.withLock { s -> Bool in
            s.tick &+= 1
            s.requests.removeAll(keepingCapacity: true)
            s.requests.append(contentsOf: requests)
            for c in pins.indices {
                s.pinned[c] = pins[c]
                if pins[c] && s.blocks[c] != nil { s.lastUse[c] = s.tick }
            }
            if s.totalBytes > cacheBytes { Self.evict(&s, bound: cacheBytes, protecting: -1) }
            guard realtime && s.requests.contains(where: { s.blocks[$0] == nil && s.failures[$0] == nil }) else { return false }
            startIfNeeded(&s)
            return true
        }
        if wake { shared.broadcast() }
    }

    /// Appends the blocks of (leaf, level) pairs to `out` (in the given order; pairs not loaded are
    /// skipped). Holding the references keeps them alive while the frame copies them.
    func blocks(_ pairs: ArraySlice<(node: Int, level: Int)>, into out: inout [PreparedSplats]) {
        shared.withLock { s in
            for (n, l) in pairs {
                let c = chunk(node: n, level: l)
                guard c >= 0, let b = s.blocks[c]?.blocks[slotIndex[n * sog.levelCount + l]] else { continue }
                out.append(b)
            }
        }
    }

    /// Decodes the chunks of `chunks` that are neither loaded nor failed now (frame-exact mode):
    /// side by side on the machine's cores, then inserted one by one in the order given (so
    /// that what is kept and evicted does not depend on which decode finished first).
    func load(_ chunks: [Int]) {
        guard !chunks.isEmpty else { return }
        var todo: [Int] = []
        withLock { s in
            for c in chunks where s.blocks[c] == nil && s.failures[c] == nil && !todo.contains(c) { todo.append(c) }
        }
        guard !todo.isEmpty else { return }
        if todo.count == 1 { insert(todo[0], decode(todo[0])); return }
        let results = Locked([Decoded?](repeating: nil, count: todo.count)), batch = todo
        // Decoding never throws (a failure is part of `Decoded`), and nothing cancels the loop.
        try? ParallelLoop.run(count: batch.count, threads: ProcessInfo.processInfo.activeProcessorCount) { k in
            let decoded = self.decode(batch[k])
            results.withLock { $0[k] = decoded }
        }
        let decoded = results.withLock { $0 }
        for (k, c) in batch.enumerated() { insert(c, decoded[k]!) }
    }

    /// Failures so far, one line each (nil entries: fine).
    var failures: [String?] { withLock { $0.failures } }

    /// What the store is doing: the chunk being decoded, chunks asked for and not loaded, bytes held.
    func progress() -> (loading: Int?, pending: Int, bytes: Int, loads: Int, evictions: Int) {
        withLock { s in
            let pending = s.requests.filter { s.blocks[$0] == nil && s.failures[$0] == nil }.count
            return (s.loading.first, pending, s.totalBytes, s.loads, s.evictions)
        }
    }

    // MARK: - Loading

    /// A decoded chunk: its blocks, or why it failed.
    struct Decoded: Sendable {
        let blocks: FrozenBlocks, bytes: Int, failure: String?
        /// Whether the blocks were mapped from their prepared file rather than decoded.
        let mapped: Bool
    }

    /// Chunk `c`'s blocks: mapped from its prepared file when one matches, else decoded and cut
    /// into blocks (then written for next time). Any thread; of the shared state it touches only
    /// the prepared bytes' count, under the lock.
    private func decode(_ c: Int) -> Decoded {
        if let path = preparedPath(c), let blocks = try? PreparedBlockFile.map(path, shDegree: shDegree, counts: expectedCounts(c)) {
            return Decoded(blocks: FrozenBlocks(blocks: blocks), bytes: blocks.reduce(0) { $0 + ($1?.bytes ?? 0) }, failure: nil, mapped: true)
        }
        var blocks: [PreparedSplats?] = []
        var failure: String?
        do {
            let cloud = try sog.loadChunk(c)
            var outside = 0
            for u in users[c] {
                if u.range.offset + u.range.count <= cloud.count {
                    blocks.append(PreparedSplats(cloud, range: u.range.indices, shDegree: shDegree))
                } else {
                    blocks.append(nil); outside += 1
                }
            }
            if outside == users[c].count && outside > 0 {
                failure = "\(sog.file): chunk \(sog.chunks[c].name): holds \(cloud.count) splats; every range in it lies beyond"
            }
        } catch {
            failure = "\(error)"
        }
        if failure == nil, let path = preparedPath(c) { keepPrepared(blocks, at: path) }
        return Decoded(blocks: FrozenBlocks(blocks: blocks), bytes: blocks.reduce(0) { $0 + ($1?.bytes ?? 0) }, failure: failure, mapped: false)
    }

    /// Where chunk `c`'s prepared blocks are kept, nil without a prepared folder.
    func preparedPath(_ c: Int) -> String? { preparedFolder.map { $0 + "/\(c).blocks" } }

    /// Chunk `c`'s blocks' splat counts as its file must hold them (files are written only for
    /// chunks that hold every range they are named for).
    private func expectedCounts(_ c: Int) -> [Int?] { users[c].map { $0.range.count } }

    /// Writes `blocks` to `path` for the next opening when the folder has room for them under
    /// `preparedLimit` (best effort: a cache that cannot be written only means decoding again).
    /// Not when a range lay beyond the chunk (a damaged tree: decoding reports it each time).
    private func keepPrepared(_ blocks: [PreparedSplats?], at path: String) {
        guard !blocks.contains(where: { $0 == nil }), let folder = preparedFolder else { return }
        // A file that did not map (damaged, stale) is replaced: its bytes are already counted.
        let replaced = RegularFile.bytes(path) ?? 0
        let size = PreparedBlockFile.fileBytes(counts: blocks.map { $0?.count }, shDegree: shDegree) - replaced
        let room = shared.withLock { s -> Bool in
            guard s.preparedBytes + size <= preparedLimit else { return false }
            s.preparedBytes += size
            return true
        }
        guard room else { return }
        mkdir(folder, 0o755)
        do { try PreparedBlockFile.write(blocks, shDegree: shDegree, to: path) } catch { shared.withLock { $0.preparedBytes -= size } }
    }

    /// Inserts chunk `c`'s decoded blocks (then evicts down to the bound), or its failure.
    private func insert(_ c: Int, _ decoded: Decoded) {
        let made = decoded.blocks, bytes = decoded.bytes, failure = decoded.failure
        shared.update { [cacheBytes] s in
            s.loading.removeAll { $0 == c }
            if let failure {
                s.failures[c] = failure
                return
            }
            s.blocks[c] = made
            s.bytes[c] = bytes
            s.totalBytes += bytes
            s.lastUse[c] = s.tick
            s.loads += 1
            if decoded.mapped { s.mappedLoads += 1 }
            Self.evict(&s, bound: cacheBytes, protecting: c)
        }
    }

    /// Evicts least recently used chunks of `s` until `bound` bytes hold (lock held) — never a
    /// pinned or requested one, nor `protecting` (just loaded, not yet pinned by a frame).
    private static func evict(_ s: inout Shared, bound: Int, protecting: Int) {
        while s.totalBytes > bound {
            var victim = -1
            for c in s.blocks.indices where c != protecting && s.blocks[c] != nil && !s.pinned[c] && !s.requests.contains(c) {
                if victim < 0 || s.lastUse[c] < s.lastUse[victim] { victim = c }
            }
            guard victim >= 0 else { return }
            s.blocks[victim] = nil
            s.totalBytes -= s.bytes[victim]
            s.bytes[victim] = 0
            s.evictions += 1
        }
    }

    /// Starts the loader threads on first need (lock held). Each holds the store until its loop
    /// ends: `stop` (from the scene's deinit) ends them.
    private func startIfNeeded(_ s: inout Shared) {
        guard !s.started, !s.stopping else { return }
        s.started = true
        for thread in threads { thread.start { [self] in run(); return false } }
    }

    /// A loader's loop: the first requested chunk neither loaded, failed nor being decoded by
    /// another loader, one at a time.
    private func run() {
        @Sendable func missing(_ s: Shared) -> Int? {
            s.requests.first(where: { s.blocks[$0] == nil && s.failures[$0] == nil && !s.loading.contains($0) })
        }
        while true {
            // The next chunk to decode (marked loading), nil to stop; −1 after a quiet 0.5 s.
            let next = shared.wait(until: { $0.stopping || missing($0) != nil }, timeout: 0.5) { s, _ -> Int? in
                if s.stopping { return nil }
                guard let c = missing(s) else { return -1 }
                s.loading.append(c)
                return c
            }
            guard let c = next else { return }
            if c >= 0 { insert(c, decode(c)) }
        }
    }

    /// Ends the loader threads. Without `wait` it returns at once: a chunk being decoded finishes
    /// on its loader thread, which holds the store until then (so dropping a scene in the window
    /// never stalls a frame); with `wait` it waits up to 30 s for each thread to end.
    func stop(wait: Bool = false) {
        shared.update { $0.stopping = true }
        for thread in threads { thread.stop(timeout: wait ? 30 : 0) }
    }
}

/// One chunk's prepared blocks (parallel to the store's `users[chunk]`; nil where a range fell
/// outside the chunk), made once on the thread that decoded the chunk and only read after.
// Audited: `blocks` and every block in it are never written after `init`; threads only read them.
struct FrozenBlocks: @unchecked Sendable {
    let blocks: [PreparedSplats?]
}

