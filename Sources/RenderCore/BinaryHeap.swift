// BinaryHeap — a binary heap whose elements say which of two comes first: the level-of-detail
// builder's candidate merges (cheapest first) and the selector's leaves (widest spacing first).

/// An element of a `BinaryHeap`: `before(a, b)` is true when `a` must leave the heap before `b`
/// (a strict order; make it total, ties broken by an index, for the same order on every run).
public protocol HeapOrdered {
    static func before(_ a: Self, _ b: Self) -> Bool
}

/// A binary heap: `push` and `pop` in O(log n); `pop` returns the element that comes first.
/// `removeAll` keeps the storage, so a heap reused frame after frame allocates nothing.
@frozen public struct BinaryHeap<Element: HeapOrdered> {
    @usableFromInline var items: [Element] = []

    @inlinable public init(reservingCapacity n: Int = 0) { items.reserveCapacity(n) }

    @inlinable public var isEmpty: Bool { items.isEmpty }
    @inlinable public var count: Int { items.count }

    @inlinable public mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    @inlinable public mutating func push(_ e: Element) {
        items.append(e)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Element.before(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// The element that comes first, removed; nil when the heap is empty.
    @inlinable public mutating func pop() -> Element? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < items.count && Element.before(items[left], items[first]) { first = left }
            if right < items.count && Element.before(items[right], items[first]) { first = right }
            if first == parent { return top }
            items.swapAt(parent, first)
            parent = first
        }
    }
}
