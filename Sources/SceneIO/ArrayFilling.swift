// SceneIO — ArrayFilling: arrays filled in place without a first pass of zeros, safe at size 0.

extension Array {
    /// `Array(unsafeUninitializedCapacity:initializingWith:)`, except that a capacity of 0 gives
    /// `[]` without calling `fill`: at 0 the standard library writes the count into the one
    /// empty-array storage every empty array shares, a data race with any other thread reading an
    /// empty array (ThreadSanitizer caught a reader of a capture without SH bands against the
    /// level-of-detail builder's empty neighbour lists).
    init(filling capacity: Int, _ fill: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void) rethrows {
        if capacity <= 0 { self = []; return }
        try self.init(unsafeUninitializedCapacity: capacity, initializingWith: fill)
    }
}
