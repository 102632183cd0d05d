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
/// - `.realtime` (the window): a background thread loads what the frame loop last asked for, in
///   the order it asked; the frame loop never waits (it reads what is loaded under a short lock).
/// - `.frameExact` (render, bench, export, tests): no thread; `load(_:)` decodes on the caller's
///   thread, so every frame depends on the eye path alone.
///
/// The cache holds at most `cacheBytes` of blocks, least recently used chunks evicted first —
/// except the chunks the current frame shows or asked for (pinned), which may take it over the
/// bound until the frame moves on. A chunk that fails to load is remembered (`failures`) and
/// never retried; its ranges are reported and skipped.
final class LODChunkStore: @unchecked Sendable {
    /// A chunk's ranges in use: (leaf, level, range), from the file's tree.
    struct User { var node: Int, level: Int, range: StreamedSOG.Range }

    let sog: StreamedSOG
    /// SH degree of every block (the file's highest, at most 3).
    let shDegree: Int
    let cacheBytes: Int
    let realtime: Bool
    /// Per chunk, the (leaf, level) ranges it holds.
    let users: [[User]]
    /// Per (leaf, level) at `n * levels + l`: the chunk and the index into `users[chunk]` (−1: none).
    private let slotChunk: [Int], slotIndex: [Int]

    /// State shared with the loader thread, guarded by `condition`.
    struct Shared {
        /// Per chunk: its blocks (parallel to `users[chunk]`; nil where a range fell outside it) when loaded.
        var blocks: [[PreparedSplats?]?]
        var bytes: [Int]
        var lastUse: [UInt64]
        var totalBytes = 0
        var failures: [String?]
        /// The frame loop's latest wishes, most urgent first, and the chunks it pins.
        var requests: [Int] = []
        var pinned: [Bool]
        var loading: Int?
        var tick: UInt64 = 0
        var stopping = false
        /// Chunks loaded since creation (for status and tests).
        var loads = 0
        var evictions = 0
    }
    private let condition = NSCondition()
    private var shared: Shared
    /// The loader thread (`.realtime`), started on the first request for a missing chunk.
    private let thread = BackgroundThread(name: "splatframe.lod")
    private var started = false

    init(sog: StreamedSOG, cacheBytes: Int, realtime: Bool) {
        self.sog = sog
        shDegree = sog.shDegree
        self.cacheBytes = max(0, cacheBytes)
        self.realtime = realtime
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
        shared = Shared(blocks: Array(repeating: nil, count: c), bytes: Array(repeating: 0, count: c),
                        lastUse: Array(repeating: 0, count: c), failures: sog.chunks.map(\.problem),
                        pinned: Array(repeating: false, count: c))
        shared.requests.reserveCapacity(c)
    }

    deinit { stop() }

    /// The chunk holding leaf `n`'s level `l` (−1 when the file names none).
    @inline(__always) func chunk(node n: Int, level l: Int) -> Int { slotChunk[n * sog.levelCount + l] }

    func withLock<T>(_ body: (inout Shared) -> T) -> T {
        condition.lock(); defer { condition.unlock() }
        return body(&shared)
    }

    // MARK: - The frame loop's side

    /// Copies the per-chunk state into the caller's arrays (sized to the chunk count): 1 loaded,
    /// 2 failed, 0 neither. Allocation-free.
    func snapshot(into state: inout [UInt8]) {
        condition.lock(); defer { condition.unlock() }
        for c in state.indices {
            state[c] = shared.blocks[c] != nil ? 1 : shared.failures[c] != nil ? 2 : 0
        }
    }

    /// Publishes the frame's wishes: `requests` (chunks in priority order) and the pinned chunks
    /// (`pins[c]`), marking them used now. Wakes the loader when something is missing.
    func request(_ requests: ArraySlice<Int>, pins: [Bool]) {
        condition.lock(); defer { condition.unlock() }
        shared.tick &+= 1
        shared.requests.removeAll(keepingCapacity: true)
        shared.requests.append(contentsOf: requests)
        for c in pins.indices {
            shared.pinned[c] = pins[c]
            if pins[c] && shared.blocks[c] != nil { shared.lastUse[c] = shared.tick }
        }
        if shared.totalBytes > cacheBytes { evictLocked(protecting: -1) }
        if realtime && shared.requests.contains(where: { shared.blocks[$0] == nil && shared.failures[$0] == nil }) {
            startIfNeeded()
            condition.broadcast()
        }
    }

    /// Appends the blocks of (leaf, level) pairs to `out` (in the given order; pairs not loaded are
    /// skipped). Holding the references keeps them alive while the frame copies them.
    func blocks(_ pairs: ArraySlice<(node: Int, level: Int)>, into out: inout [PreparedSplats]) {
        condition.lock(); defer { condition.unlock() }
        for (n, l) in pairs {
            let c = chunk(node: n, level: l)
            guard c >= 0, let b = shared.blocks[c]?[slotIndex[n * sog.levelCount + l]] else { continue }
            out.append(b)
        }
    }

    /// Decodes chunk `c` now on the calling thread unless it is loaded or failed (frame-exact mode).
    func load(_ c: Int) {
        let skip = withLock { $0.blocks[c] != nil || $0.failures[c] != nil }
        if !skip { decodeAndInsert(c) }
    }

    /// Failures so far, one line each (nil entries: fine).
    var failures: [String?] { withLock { $0.failures } }

    /// What the store is doing: the chunk being decoded, chunks asked for and not loaded, bytes held.
    func progress() -> (loading: Int?, pending: Int, bytes: Int, loads: Int, evictions: Int) {
        withLock { s in
            let pending = s.requests.filter { s.blocks[$0] == nil && s.failures[$0] == nil }.count
            return (s.loading, pending, s.totalBytes, s.loads, s.evictions)
        }
    }

    // MARK: - Loading

    /// Decodes chunk `c`, cuts it into blocks and inserts them (then evicts down to the bound).
    private func decodeAndInsert(_ c: Int) {
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
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        if shared.loading == c { shared.loading = nil }
        if let failure {
            shared.failures[c] = failure
            return
        }
        let bytes = blocks.reduce(0) { $0 + ($1?.bytes ?? 0) }
        shared.blocks[c] = blocks
        shared.bytes[c] = bytes
        shared.totalBytes += bytes
        shared.lastUse[c] = shared.tick
        shared.loads += 1
        evictLocked(protecting: c)
    }

    /// Evicts least recently used chunks until the bound holds (lock held) — never a pinned or
    /// requested one, nor `protecting` (just loaded, not yet pinned by a frame).
    private func evictLocked(protecting: Int) {
        while shared.totalBytes > cacheBytes {
            var victim = -1
            for c in shared.blocks.indices where c != protecting && shared.blocks[c] != nil && !shared.pinned[c] && !shared.requests.contains(c) {
                if victim < 0 || shared.lastUse[c] < shared.lastUse[victim] { victim = c }
            }
            guard victim >= 0 else { return }
            shared.blocks[victim] = nil
            shared.totalBytes -= shared.bytes[victim]
            shared.bytes[victim] = 0
            shared.evictions += 1
        }
    }

    /// Starts the loader thread on first need (lock held). The thread holds the store until its
    /// loop ends: `stop` (from the scene's deinit) ends it.
    private func startIfNeeded() {
        guard !started, !shared.stopping else { return }
        started = true
        thread.start { [self] in run(); return false }
    }

    /// The loader loop: the first requested chunk neither loaded nor failed, one at a time.
    private func run() {
        condition.lock()
        while !shared.stopping {
            guard let c = shared.requests.first(where: { shared.blocks[$0] == nil && shared.failures[$0] == nil }) else {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.5))
                continue
            }
            shared.loading = c
            condition.unlock()
            decodeAndInsert(c)
            condition.lock()
        }
        condition.unlock()
    }

    /// Ends the loader thread. Without `wait` it returns at once: a chunk being decoded finishes
    /// on the loader thread, which holds the store until then (so dropping a scene in the window
    /// never stalls a frame); with `wait` it waits up to 30 s for the thread to end.
    func stop(wait: Bool = false) {
        condition.lock()
        shared.stopping = true
        condition.broadcast()
        condition.unlock()
        thread.stop(timeout: wait ? 30 : 0)
    }
}
