import RenderCore

/// The triangles set up from one contiguous run of input triangles, and their tile bins.
///
/// Each chunk is written by one thread during setup, then read by every tile; tiles walk
/// chunks in order, so triangles are drawn in submission order whatever the thread count.
/// Storage grows as needed and is reused frame after frame.
struct SetupChunk {
    var setups: UnsafeMutablePointer<TriangleSetup>
    var count = 0
    var capacity: Int
    /// `tileStart[t] ..< tileStart[t + 1]` index `entries` for tile t.
    var tileStart: UnsafeMutablePointer<Int32>
    var tileCapacity: Int
    var entries: UnsafeMutablePointer<Int32>
    var entryCapacity: Int

    init() {
        capacity = 256; setups = .allocate(capacity: capacity)
        tileCapacity = 1; tileStart = .allocate(capacity: 1)
        entryCapacity = 256; entries = .allocate(capacity: entryCapacity)
    }

    func free() {
        setups.deallocate(); tileStart.deallocate(); entries.deallocate()
    }

    @inline(__always) mutating func append(_ s: TriangleSetup) {
        if count == capacity {
            // A chunk that outgrows its first 256 goes straight to the run length (a whole run
            // visible; clipping rarely adds more): as the eye moves, chunks take turns being the
            // busiest, and doubling step by step kept allocating long after the warm-up.
            let n = max(capacity * 2, RasterSettings.setupChunk)
            let p = UnsafeMutablePointer<TriangleSetup>.allocate(capacity: n)
            p.moveInitialize(from: setups, count: count)
            setups.deallocate()
            setups = p; capacity = n
        }
        (setups + count).initialize(to: s)
        count += 1
    }

    /// Sorts this chunk's triangles into per-tile lists (counting sort, order kept).
    mutating func bin(tilesX: Int, tilesY: Int) {
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
        if entryCapacity < total {
            entries.deallocate()
            entryCapacity = max(total + total / 2, entryCapacity * 2)  // headroom for the next views
            entries = .allocate(capacity: entryCapacity)
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
