// SceneIO — SPZWriteOptions: how `SPZWriter` (and `SceneFile.save`/`convert` to `.spz`) writes.

/// Choices for writing `.spz`. The defaults write what nianticlabs/spz's `saveSpz` writes for
/// version 3: gzip, 12 fractional bits, SH band 1 on 5 bits and bands 2–4 on 4 bits.
public struct SPZWriteOptions: Sendable, Equatable {
    /// 3 (one gzip stream, readable by every .spz reader since 2025) or 4 (a table of contents
    /// and one zstd stream per attribute).
    public var version: Int
    /// The "render antialiased" flag (0x1). nil: `SceneFile.convert` copies the input's flag
    /// (`SceneInfo.antialiased`); a direct `SPZWriter.encode` writes false.
    public var antialiased: Bool?
    /// Fractional bits of the 24-bit fixed-point positions, at most: 12 gives 1/4096 m steps
    /// and ±2048 m of range; the writer lowers it (halving the resolution per bit) until the
    /// farthest centre fits, and fails beyond ±8 388 607 m. 0…23.
    public var fractionalBits: Int
    /// Significant bits kept of each SH band-1 coefficient byte (1…8; the rest rounded to a
    /// bucket centre, which compresses better). The reference's default is 5.
    public var sh1Bits: Int
    /// Significant bits kept of each SH band 2–4 coefficient byte (1…8; default 4).
    public var shRestBits: Int

    public init(version: Int = 3, antialiased: Bool? = nil, fractionalBits: Int = 12, sh1Bits: Int = 5, shRestBits: Int = 4) {
        self.version = version; self.antialiased = antialiased; self.fractionalBits = fractionalBits
        self.sh1Bits = sh1Bits; self.shRestBits = shRestBits
    }
}
