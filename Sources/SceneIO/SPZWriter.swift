// SceneIO — SPZWriter: SplatCloud (RDF, the 3DGS PLY frame) → Niantic .spz v3 (gzip) or v4 (zstd).
//
// Job: quantise as nianticlabs/spz `packGaussians` does and convert RDF → RUB (the frame an .spz
// without a coordinate-system extension is stored in): positions 24-bit signed fixed point with
// `fractionalBits` (x, −y, −z); alpha = round(opacity·255); colour = round(dc·0.15·255 + 127.5);
// log-scale byte = round((ln s + 10)·16); rotations (w, x, −y, −z) as "smallest three" (the
// largest of x, y, z, w made positive, the others 9-bit magnitudes of |c|/√½ plus a sign bit, the
// lowest index in the highest 10-bit field, the largest's index in the top 2 bits); SH
// (round(v·128) + 128) rounded to a bucket centre (band 1: 2^(8−sh1Bits) wide, bands 2–4:
// 2^(8−shRestBits)), with the RUB ↔ RDF sign per coefficient (`SPZAxisMap.shSigns`).
// Layout: a 16-byte header (v3) or 32-byte header + TOC (v4); blocks positions, alphas, colours,
// scales, rotations, SH, each attribute for all splats. Every SH coefficient is written, degree 4
// included. No extension records are written.
// Contract: writes only what the reference reader reads back; rejects (never wraps) centres that
// do not fit 24 bits even at 0 fractional bits, empty clouds, and non-finite centres.
import Foundation
import RenderCore

/// Writes `.spz` files.
public enum SPZWriter {
    /// Largest magnitude of a 24-bit signed fixed-point coordinate.
    static let maxFixed = Double((1 << 23) - 1)

    /// The file bytes for a cloud (in the PLY frame, RDF).
    /// - Parameters:
    ///   - options: version 3 or 4, flags and quantisation (see `SPZWriteOptions`).
    ///   - file: the name used in error messages.
    /// - Throws: `SceneIOError.unsupported` for options out of range, an empty cloud or centres too
    ///   far for 24 bits; `badValue` for a non-finite centre; `unwritable` if compression fails.
    /// - Complexity: O(count · SH coefficients), then one compression pass.
    public static func encode(_ cloud: SplatCloud, options: SPZWriteOptions = SPZWriteOptions(), file: String = "output.spz") throws -> [UInt8] {
        let o = options
        guard o.version == 3 || o.version == 4 else { throw SceneIOError.unsupported(file: file, reason: ".spz version \(o.version) (writes 3 or 4)") }
        guard (0...23).contains(o.fractionalBits) else { throw SceneIOError.unsupported(file: file, reason: "\(o.fractionalBits) fractional bits (0…23)") }
        guard (1...8).contains(o.sh1Bits), (1...8).contains(o.shRestBits) else {
            throw SceneIOError.unsupported(file: file, reason: "SH bits \(o.sh1Bits)/\(o.shRestBits) (1…8 each)")
        }
        let n = cloud.count
        guard n > 0 else { throw SceneIOError.unsupported(file: file, reason: "an .spz of 0 splats (readers reject an empty .spz)") }
        guard n <= Int(Int32.max) else { throw SceneIOError.unsupported(file: file, reason: "\(n) splats (an .spz holds at most 2^31 − 1)") }
        let degree = cloud.shDegree
        guard (0...SplatCloud.maxSHDegree).contains(degree) else { throw SceneIOError.unsupported(file: file, reason: "SH degree \(degree) (0…4)") }
        let restN = SplatCloud.restCount(degree: degree)
        guard cloud.shRest.count == n * restN * 3, cloud.scales.count == n, cloud.rotations.count == n,
              cloud.opacities.count == n, cloud.dc.count == n else {
            throw SceneIOError.unsupported(file: file, reason: "a splat cloud whose arrays disagree in length")
        }
        let map = SPZCoordinateSystem.rub.toRDF.inverse                      // RDF → RUB
        guard let shSigns = map.shSigns(restCount: restN) else {
            throw SceneIOError.unsupported(file: file, reason: "an axis swap for SH (internal)")
        }
        let fb = try fractionalBits(cloud.positions, preferred: o.fractionalBits, file: file)

        // Attribute blocks, each for all splats, in file order.
        var positions = [UInt8](repeating: 0, count: n * 9)
        var alphas = [UInt8](repeating: 0, count: n)
        var colors = [UInt8](repeating: 0, count: n * 3)
        var scales = [UInt8](repeating: 0, count: n * 3)
        var rotations = [UInt8](repeating: 0, count: n * 4)
        var sh = [UInt8](repeating: 0, count: n * restN * 3)
        let fixed = Float(1 << fb)
        let colorScale = SPZReader.colorScale * 255
        let bucket1 = 1 << (8 - o.sh1Bits), bucketRest = 1 << (8 - o.shRestBits)
        for i in 0..<n {
            let p = map.position(cloud.positions[i]) * fixed
            for a in 0..<3 {
                let v = Int32(p[a].rounded())                                 // |v| ≤ 2^23 − 1, checked above
                for b in 0..<3 { positions[i * 9 + a * 3 + b] = UInt8(truncatingIfNeeded: v >> (8 * b)) }
            }
            alphas[i] = byte(cloud.opacities[i] * 255)
            let d = cloud.dc[i], s = cloud.scales[i]
            for c in 0..<3 {
                colors[i * 3 + c] = byte(d[c] * colorScale + 0.5 * 255)
                scales[i * 3 + c] = byte((logf(s[c]) + 10) * 16)
            }
            let comp = smallestThree(map.rotation(cloud.rotations[i].normalized))
            for b in 0..<4 { rotations[i * 4 + b] = UInt8(truncatingIfNeeded: comp >> (8 * b)) }
            let base = i * restN * 3
            for k in 0..<restN {
                for c in 0..<3 {
                    sh[base + k * 3 + c] = quantizeSH(cloud.shRest[base + k * 3 + c] * shSigns[k], bucket: k < 3 ? bucket1 : bucketRest)
                }
            }
        }
        let flags: UInt8 = (o.antialiased ?? false) ? 0x1 : 0
        let blocks = [positions, alphas, colors, scales, rotations, sh]
        if o.version == 3 {
            var raw = le32(0x5053_474e) + le32(3) + le32(UInt32(n)) + [UInt8(degree), UInt8(fb), flags, 0]
            raw.reserveCapacity(16 + blocks.reduce(0) { $0 + $1.count })
            for b in blocks { raw += b }
            return try Compress.gzip(raw, file: file)
        }
        // v4: header, table of contents (compressed, uncompressed sizes), the non-empty streams.
        let streams = try blocks.filter { !$0.isEmpty }.map { (try Compress.zstd($0, file: file), $0.count) }
        var out = le32(0x5053_474e) + le32(4) + le32(UInt32(n)) + [UInt8(degree), UInt8(fb), flags, UInt8(streams.count)]
        out += le32(32) + [UInt8](repeating: 0, count: 12)
        for (z, raw) in streams { out += le64(UInt64(z.count)) + le64(UInt64(raw)) }
        for (z, _) in streams { out += z }
        return out
    }

    /// Writes a cloud to a file.
    public static func write(_ cloud: SplatCloud, to path: String, options: SPZWriteOptions = SPZWriteOptions()) throws {
        let bytes = try encode(cloud, options: options, file: path)
        do { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw SceneIOError.unwritable(file: path, reason: error.localizedDescription)
        }
    }

    /// The largest number of fractional bits ≤ `preferred` at which every centre fits 24 bits.
    static func fractionalBits(_ positions: [Vec3], preferred: Int, file: String) throws -> Int {
        var far: Float = 0
        for (i, p) in positions.enumerated() {
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.badValue(file: file, element: "splat", row: i, expected: "a finite centre", found: "\(p.x) \(p.y) \(p.z)")
            }
            far = max(far, abs(p.x), abs(p.y), abs(p.z))
        }
        var fb = preferred
        while fb > 0 && (Double(far) * Double(1 << fb)).rounded() > maxFixed { fb -= 1 }
        guard (Double(far) * Double(1 << fb)).rounded() <= maxFixed else {
            throw SceneIOError.unsupported(file: file, reason: "a centre \(far) m from the origin (.spz positions reach ±8388607 m)")
        }
        return fb
    }

    /// round(v) clamped to 0…255 (NaN → 0), as the reference's `toUint8`.
    @inline(__always) static func byte(_ v: Float) -> UInt8 {
        if v.isNaN { return 0 }
        return UInt8(min(255, max(0, v.rounded())))
    }

    /// An SH coefficient as a byte: 128 + round(v·128), moved to the centre of its bucket
    /// ((q + bucket/2) / bucket · bucket, integer division), clamped to 0…255 (NaN → 128).
    @inline(__always) static func quantizeSH(_ v: Float, bucket: Int) -> UInt8 {
        if v.isNaN { return 128 }
        let q = Int(min(1024, max(-1024, (v * 128).rounded()))) + 128
        return UInt8(clamping: (q + bucket / 2) / bucket * bucket)
    }

    /// A unit quaternion as "smallest three" (see the file header).
    @inline(__always) static func smallestThree(_ q: Quaternion) -> UInt32 {
        let c = [q.x, q.y, q.z, q.w]
        var largest = 0
        for i in 1..<4 where abs(c[i]) > abs(c[largest]) { largest = i }
        let negate = c[largest] < 0
        let half = Float(0.5).squareRoot()
        var comp = UInt32(largest)
        for i in 0..<4 where i != largest {
            let sign: UInt32 = (c[i] < 0) != negate ? 1 : 0
            let mag = UInt32(min(511, 511 * abs(c[i]) / half + 0.5))       // truncating after +0.5: rounds
            comp = comp << 10 | sign << 9 | mag
        }
        return comp
    }

    @inline(__always) static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    @inline(__always) static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}
