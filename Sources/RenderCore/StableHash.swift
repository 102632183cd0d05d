// RenderCore — StableHash: a hash that is the same in every process and on every machine (Swift's
// `Hasher` is seeded per process), for cache keys on disk.

/// 64-bit FNV-1a.
public enum StableHash {
    /// The FNV-1a hash of `text`'s UTF-8 bytes as 16 lower-case hex digits.
    public static func hex(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h ^= UInt64(b); h &*= 0x0000_0100_0000_01b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
