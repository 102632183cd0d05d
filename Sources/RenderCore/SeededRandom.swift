// SeededRandom — a tiny deterministic generator (SplitMix64): procedural scenes, the tracker rig's noise, the SOG writer's k-means seeds.

/// SplitMix64: fast, 64-bit state, identical sequences on every platform for a seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// A generator whose state starts at `state` itself (SplitMix64 as published, seeded with it).
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Float { Float(next() >> 40) * (1.0 / 16_777_216.0) }

    /// Standard normal (Box–Muller).
    public mutating func normal() -> Float {
        let u1 = max(uniform(), 1e-7), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Float.pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
