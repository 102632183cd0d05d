import Foundation
import RenderCore

/// SplitMix64 seeded with the seed itself, so a test's random inputs follow from its seed alone
/// (a failure reproduces). Tests share this one; RenderCore's `SeededRandom` offsets its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var generator: SeededRandom
    public init(seed: UInt64) { generator = SeededRandom(state: seed) }
    public mutating func next() -> UInt64 { generator.next() }
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
