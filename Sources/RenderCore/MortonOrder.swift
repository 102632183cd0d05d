// MortonOrder — points in Z-curve order: the one ordering by spatial locality that the renderer's
// slots, the SOG writer's texels and the level-of-detail builder's pairs all use.

/// Morton (Z-curve) order of points on a 1024³ grid over a box.
public enum MortonOrder {
    /// Indices `0..<points.count` sorted by the Morton code of each point's cell in `bounds`
    /// (10 bits per axis; points outside are clamped to the box, NaN coordinates to its low
    /// side), ties in index order. O(n log n).
    public static func indices(_ points: some Collection<Vec3>, bounds: Bounds) -> [UInt32] {
        // Not specialised across modules: a generic collection's elements cost a witness call
        // each (a 65k-splat chunk's order was a third of its decoding), contiguous storage none.
        if let order = points.withContiguousStorageIfAvailable({ indices($0, bounds: bounds) }) { return order }
        return Array(points).withUnsafeBufferPointer { indices($0, bounds: bounds) }
    }

    /// `indices` over contiguous points.
    public static func indices(_ points: UnsafeBufferPointer<Vec3>, bounds: Bounds) -> [UInt32] {
        let lo = bounds.isEmpty ? Vec3(repeating: 0) : bounds.min
        let extent = bounds.isEmpty ? Vec3(repeating: 1) : bounds.max - bounds.min
        let scale = Vec3(repeating: 1023) / Vec3(max(extent.x, 1e-30), max(extent.y, 1e-30), max(extent.z, 1e-30))
        @inline(__always) func cell(_ v: Float) -> UInt64 {
            guard v.isFinite else { return 0 }
            return UInt64(min(max(v, 0), 1023))
        }
        var keys = [UInt64]()
        keys.reserveCapacity(points.count)
        for (i, p) in points.enumerated() {
            let q = (p - lo) * scale
            keys.append(code(cell(q.x), cell(q.y), cell(q.z)) << 32 | UInt64(i))
        }
        keys.sort()
        return keys.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The 30-bit Morton code of a cell (each coordinate 0…1023): bit k of x, y, z goes to bit
    /// 3k, 3k + 1, 3k + 2.
    @inline(__always)
    public static func code(_ x: UInt64, _ y: UInt64, _ z: UInt64) -> UInt64 {
        spread(x) | spread(y) << 1 | spread(z) << 2
    }

    @inline(__always)
    static func spread(_ x: UInt64) -> UInt64 {  // bit k → bit 3k (10 bits)
        var v = x & 0x3FF
        v = (v | v << 16) & 0x0300_00FF
        v = (v | v << 8) & 0x0300_F00F
        v = (v | v << 4) & 0x030C_30C3
        v = (v | v << 2) & 0x0924_9249
        return v
    }
}
