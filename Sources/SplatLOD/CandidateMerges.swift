// SplatLOD — CandidateMerges: the pairs a level's merging may still take, cheapest first (a binary
// min-heap). Entries carry the two splats' versions when they were costed, so an entry whose
// splat has merged since is recognised as stale and skipped, not searched for and removed.

/// A min-heap of candidate merges, ordered by cost, then by the two indices (so equal costs
/// pop in the same order on every run and thread count).
struct CandidateMerges {
    /// A candidate: splats `a` < `b` of the level, costed when their versions were `versionA`, `versionB`.
    struct Entry {
        var cost: Double
        var a: Int32, b: Int32
        var versionA: UInt32, versionB: UInt32
    }

    private var items: [Entry] = []

    init(reservingCapacity n: Int) { items.reserveCapacity(n) }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }

    private static func less(_ x: Entry, _ y: Entry) -> Bool { (x.cost, x.a, x.b) < (y.cost, y.a, y.b) }

    mutating func push(_ e: Entry) {
        items.append(e)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// The cheapest entry, removed; nil when none is left.
    mutating func popCheapest() -> Entry? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var least = parent
            if left < items.count && Self.less(items[left], items[least]) { least = left }
            if right < items.count && Self.less(items[right], items[least]) { least = right }
            if least == parent { return top }
            items.swapAt(parent, least)
            parent = least
        }
    }
}
