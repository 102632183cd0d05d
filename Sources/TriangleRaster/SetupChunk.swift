import RenderCore

/// The triangles set up from one contiguous run of input triangles, and their tile bins.
///
/// Each chunk is written by one thread during setup, then read by every tile; tiles walk
/// chunks in order, so triangles are drawn in submission order whatever the thread count.
/// A chunk's setups live in the rasterizer's setup buffer, at an offset computed before the
/// stage from every chunk's bound; its tile entries in the draw's shared `DrawArena`, or —
/// only when that is full: the first frames, or a view bigger than any before — in storage
/// of its own.
struct SetupChunk {
    /// This draw's setups (`count` of at most `capacity`).
    var setups: UnsafeMutablePointer<TriangleSetup>
    var count = 0
    var capacity = 0
    /// `tileStart[t] ..< tileStart[t + 1]` index `entries` for tile t.
    var tileStart: UnsafeMutablePointer<Int32>
    var tileCapacity: Int
    var entries: UnsafeMutablePointer<Int32>
    private var ownEntries: UnsafeMutablePointer<Int32>?
    private var ownEntryCapacity = 0

    /// Where `setups` points before the first `begin` (never read: `count` is 0).
    nonisolated(unsafe) private static let noSetups = UnsafeMutablePointer<TriangleSetup>.allocate(capacity: 1)

    init() {
        tileCapacity = 1; tileStart = .allocate(capacity: 1); tileStart[0] = 0
        setups = Self.noSetups; entries = .allocate(capacity: 1)
        ownEntries = entries; ownEntryCapacity = 1
    }

    func free() {
        tileStart.deallocate(); ownEntries?.deallocate()
    }

    /// Starts this draw's setups in `storage`, which has room for `capacity` (an upper bound
    /// on what `append` adds).
    mutating func begin(storage: UnsafeMutablePointer<TriangleSetup>, capacity: Int) {
        setups = storage; count = 0; self.capacity = capacity
    }

    /// Frees the fallback entry storage (after the arena grew to hold every chunk).
    mutating func releaseOwnStorage() {
        ownEntries?.deallocate(); ownEntries = nil; ownEntryCapacity = 0
    }

    @inline(__always) mutating func append(_ s: TriangleSetup) {
        precondition(count < capacity, "SetupChunk: more setups than reserved")
        (setups + count).initialize(to: s)
        count += 1
    }

    /// Sorts this chunk's triangles into per-tile lists (counting sort, order kept).
    mutating func bin(tilesX: Int, tilesY: Int, arena: DrawArena<Int32>) {
        let tiles = tilesX * tilesY
        if tileCapacity < tiles + 1 {
            tileStart.deallocate()
            tileCapacity = tiles + 1
            tileStart = .allocate(capacity: tileCapacity)
        }
        tileStart.update(repeating: 0, count: tiles + 1)
        let shift = Int32(RasterSettings.tileShift)
        var total = 0
        for i in 0..<count {
            let s = setups[i]
            let tx0 = Int(s.minX >> shift), tx1 = Int(s.maxX >> shift)
            let ty0 = Int(s.minY >> shift), ty1 = Int(s.maxY >> shift)
            for ty in ty0...ty1 {
                for tx in tx0...tx1 { tileStart[ty * tilesX + tx + 1] += 1 }
            }
            total += (tx1 - tx0 + 1) * (ty1 - ty0 + 1)
        }
        for t in 0..<tiles { tileStart[t + 1] += tileStart[t] }
        if let p = arena.claim(total) {
            entries = p
        } else {
            if ownEntries == nil || ownEntryCapacity < total {
                ownEntries?.deallocate()
                ownEntryCapacity = max(1, total + total / 2)
                ownEntries = .allocate(capacity: ownEntryCapacity)
            }
            entries = ownEntries!
        }
        // Fill, using tileStart[t] as a cursor, then shift back.
        for i in 0..<count {
            let s = setups[i]
            let tx0 = Int(s.minX >> shift), tx1 = Int(s.maxX >> shift)
            let ty0 = Int(s.minY >> shift), ty1 = Int(s.maxY >> shift)
            for ty in ty0...ty1 {
                for tx in tx0...tx1 {
                    let t = ty * tilesX + tx
                    entries[Int(tileStart[t])] = Int32(i)
                    tileStart[t] += 1
                }
            }
        }
        var t = tiles
        while t > 0 { tileStart[t] = tileStart[t - 1]; t -= 1 }
        tileStart[0] = 0
    }
}
