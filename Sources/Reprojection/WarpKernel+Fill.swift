// WarpKernel+Fill — the hole fill: target pixels the forward warp did not reach take the
// farther of nearby pixels that it did reach (a disocclusion shows what was behind).
import RenderCore
import Synchronization

extension BandWork {
    /// How many rows up and down a hole looks for reached pixels (at most 8: their mask bytes
    /// are read into one 64-bit word).
    static let fillReach = 4

    /// Whether the warp reached target pixel (x, y) (from `reached`, written by `resolve`).
    @inline(__always) func isReached(_ x: Int, _ y: Int) -> Bool {
        reached[y &* groupsPerRow &+ x &>> 3] >> UInt8(x & 7) & 1 != 0
    }

    /// Target rows per fill work item: fewer than a scatter band, because holes gather in a
    /// few rows (the strip a vertical move uncovers lies in one or two bands) and the threads
    /// should share them.
    static let fillRows = 4

    /// Fills the holes of rows `fillRows`·k… that `fillInterior(band:)` left (rows within
    /// `fillReach` of a band's edge). A hole takes, when the warp reached a pixel within
    /// `fillReach` rows both above and below it, the farther of the nearest two (a crack where
    /// a surface was stretched, or a thin sliver uncovered by a vertical move); else the
    /// farther end of its run of holes in the row (a disocclusion shows what was behind: the
    /// background, not the foreground, fills it); else the reached pixel above or below; else
    /// the target's background at +inf. Only reached pixels are read, and they do not change
    /// here, so the result does not depend on which rows are filled first.
    func fill(item k: Int) {
        let y0 = k &* Self.fillRows, y1 = min(height, y0 &+ Self.fillRows)
        for y in y0..<y1 where !isInterior(row: y) { holes[y] = fill(row: y) }
    }

    /// Fills the holes of band `b`'s rows whose rows within `fillReach` lie in the band too,
    /// right after the band's resolve (its pixels still in cache): they read no other band.
    func fillInterior(band b: Int) {
        let y0 = b &* bandRows, y1 = min(height, y0 &+ bandRows)
        let first = y0 == 0 ? 0 : y0 &+ Self.fillReach, end = y1 == height ? height : y1 &- Self.fillReach
        var y = first
        while y < end { holes[y] = fill(row: y); y &+= 1 }
    }

    /// Called once band `b` is resolved: for each seam of `b` whose other band is resolved
    /// too (the counter reaches 0 here), fills the rows within `fillReach` of the seam (their
    /// rows within `fillReach` lie in the seam's two bands, as bands have at least
    /// 2·`fillReach` rows; `Timewarp` runs `fill(item:)` otherwise).
    func finishSeams(band b: Int, seams: UnsafeMutablePointer<Atomic<Int>>) {
        var s = max(0, b &- 1)
        while s <= min(b, bands &- 2) {
            if seams[s].subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                let edge = (s &+ 1) &* bandRows
                for y in max(0, edge &- Self.fillReach)..<min(height, edge &+ Self.fillReach) { holes[y] = fill(row: y) }
            }
            s &+= 1
        }
    }

    /// Whether row `y` is filled with its band (`fillInterior`): the rows within `fillReach`
    /// above and below it are in its band.
    @inline(__always) private func isInterior(row y: Int) -> Bool {
        let y0 = y / bandRows &* bandRows, y1 = min(height, y0 &+ bandRows)
        return (y0 == 0 || y >= y0 &+ Self.fillReach) && (y1 == height || y < y1 &- Self.fillReach)
    }

    /// Whether no pixel in mask bytes `g0..<g1` of the rows within `fillReach` above and below
    /// `y` was reached (then every hole in those columns of row `y` takes its run's end).
    @inline(__always) private func noneNear(row y: Int, groups g0: Int, _ g1: Int) -> Bool {
        for r in max(0, y &- Self.fillReach)...min(height &- 1, y &+ Self.fillReach) where r != y {
            let bytes = reached + r &* groupsPerRow
            for g in g0..<g1 where bytes[g] != 0 { return false }
        }
        return true
    }

    /// Fills row `y`'s holes; returns how many there were.
    private func fill(row y: Int) -> Int {
        let row = y &* width, maskRow = reached + y &* groupsPerRow
        var count = 0, x = 0
        while x < width {
            if x & 7 == 0 && maskRow[x &>> 3] == 0xFF { x &+= 8; continue }
            guard !isReached(x, y) else { x &+= 1; continue }
            let x0 = x
            while x < width && !isReached(x, y) { x &+= 1 }
            count &+= x &- x0
            // The run's ends: the farther of the two reached pixels left and right of it.
            var side = -1
            if x0 > 0 { side = row &+ x0 &- 1 }
            if x < width && (side < 0 || targetDepth[row &+ x] > targetDepth[side]) { side = row &+ x }
            if x &- x0 >= 16 && noneNear(row: y, groups: x0 &>> 3, (x &+ 7) &>> 3) {
                // Nothing reached above or below: the whole run takes its end (or the background).
                if side >= 0 {
                    let (c, d) = (target[side], targetDepth[side])
                    (target + (row &+ x0)).update(repeating: c, count: x &- x0)
                    (targetDepth + (row &+ x0)).update(repeating: d, count: x &- x0)
                } else {
                    (target + (row &+ x0)).update(repeating: background, count: x &- x0)
                    (targetDepth + (row &+ x0)).update(repeating: .infinity, count: x &- x0)
                }
                continue
            }
            // The mask bytes of the rows above and below (byte k − 1: row y ∓ k), per group of
            // 8 columns: the nearest reached row is the lowest byte with the pixel's bit set.
            var group = -1, aboveBytes: UInt64 = 0, belowBytes: UInt64 = 0
            for p in x0..<x {
                if p &>> 3 != group {
                    group = p &>> 3; aboveBytes = 0; belowBytes = 0
                    for k in 1...Self.fillReach {
                        let shift = UInt64(8 &* (k &- 1))
                        if y &- k >= 0 { aboveBytes |= UInt64(reached[(y &- k) &* groupsPerRow &+ group]) << shift }
                        if y &+ k < height { belowBytes |= UInt64(reached[(y &+ k) &* groupsPerRow &+ group]) << shift }
                    }
                }
                let bit = UInt64(p & 7), ones: UInt64 = 0x0101_0101_0101_0101
                let up = (aboveBytes >> bit) & ones, down = (belowBytes >> bit) & ones
                let above = up == 0 ? -1 : row &- (up.trailingZeroBitCount &>> 3 &+ 1) &* width &+ p
                let below = down == 0 ? -1 : row &+ (down.trailingZeroBitCount &>> 3 &+ 1) &* width &+ p
                var from: Int
                if above >= 0 && below >= 0 {
                    from = targetDepth[above] >= targetDepth[below] ? above : below
                } else {
                    from = side >= 0 ? side : max(above, below)
                }
                if from >= 0 {
                    target[row &+ p] = target[from]; targetDepth[row &+ p] = targetDepth[from]
                } else {
                    target[row &+ p] = background; targetDepth[row &+ p] = .infinity
                }
            }
        }
        return count
    }
}
