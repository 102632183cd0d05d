import Foundation

/// SplitMix64 seeded with the seed itself, so a test's random inputs follow from its seed alone
/// (a failure reproduces). Tests share this one; RenderCore's `SeededRandom` offsets its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Camera device nodes for tests of a missing camera.
public enum CameraDevices {
    /// The first N in 7…999 with no /dev/videoN (nil if all exist).
    public static func absentIndex() -> Int? {
        (7...999).first { !FileManager.default.fileExists(atPath: "/dev/video\($0)") }
    }

    /// Whether `text` names `/dev/videoN` itself (not `/dev/videoN0`…, which an error's list of
    /// present devices may hold).
    public static func names(_ text: some StringProtocol, _ n: Int) -> Bool {
        let name = "/dev/video\(n)"
        var rest = Substring(text)
        while let r = rest.range(of: name) {
            let after = rest[r.upperBound...]
            if !(after.first?.isNumber ?? false) { return true }
            rest = after
        }
        return false
    }
}
