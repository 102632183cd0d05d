// RenderCore — StableHash: a hash that is the same in every process and on every machine (Swift's
// `Hasher` is seeded per process), for cache keys on disk.

/// 64-bit FNV-1a.
public enum StableHash {
    /// The hash of no bytes: where a running hash starts.
    public static let start: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `hash` continued over `bytes`.
    @inlinable public static func mixing<S: Sequence>(_ bytes: S, into hash: UInt64) -> UInt64 where S.Element == UInt8 {
        var h = hash
        for b in bytes { h ^= UInt64(b); h &*= 0x0000_0100_0000_01b3 }
        return h
    }

    /// The FNV-1a hash of `text`'s UTF-8 bytes as 16 lower-case hex digits.
    public static func hex(_ text: String) -> String {
        let h = mixing(text.utf8, into: start)
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
