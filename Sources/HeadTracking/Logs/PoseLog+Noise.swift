// PoseLog+Noise — seeded white noise, to evaluate filters on a clean (mocap) track as if it
// came from a noisy tracker such as a webcam.
import Foundation

extension PoseLog {
    /// The log with independent Gaussian noise of standard deviation `sigma` metres added to
    /// every coordinate. Deterministic for a given `seed` (SplitMix64 + Box–Muller).
    public func withNoise(sigma: Double, seed: UInt64 = 1) -> PoseLog {
        var state = seed
        func next() -> Double {   // SplitMix64 → uniform in (0, 1)
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (Double(z >> 11) + 0.5) / Double(1 << 53)
        }
        func gauss() -> Double { (-2 * log(next())).squareRoot() * cos(2 * Double.pi * next()) }
        var copy = self
        copy.samples = samples.map { var s = $0; s.position += sigma * Vec3d(gauss(), gauss(), gauss()); return s }
        return copy
    }
}
