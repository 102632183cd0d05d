// SceneIOTests — .spz decoding on synthetic files: quantisation, rotations (v2 and smallest
// three), RUB → RDF flips including SH signs, SH degree 4 kept whole, the antialiased flag,
// big-endian 3DGS PLY.
import Foundation
import Testing
import RenderCore
@testable import SceneIO

struct SPZTests {
    let hostile = HostileInputTests()

    /// One splat at (1, 2, −3) with known bytes; SH bands per `degree`, coefficient k channel c = 128 + k·3 + c + 1.
    func payload(version: UInt32, degree: UInt8, rotation: [UInt8]) -> [UInt8] {
        var b = hostile.spzHeader(version: version, count: 1, degree: degree, fb: 12)
        for v in [1.0, 2.0, -3.0] {                          // 24-bit fixed point, 12 fractional bits
            let i = Int32(v * 4096)
            b += [UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8), UInt8(truncatingIfNeeded: i >> 16)]
        }
        b += [255]                                           // alpha
        b += [38, 128, 217]                                  // colour
        b += [160, 144, 128]                                 // log-scale bytes: 0, −1, −2
        b += rotation
        let dim = (Int(degree) + 1) * (Int(degree) + 1) - 1
        for k in 0..<dim { for c in 0..<3 { b.append(UInt8(128 + k * 3 + c + 1)) } }
        return b
    }

    @Test func v3QuantisationAndAxes() throws {
        // Smallest three: largest = w (index 3); x, y, z stored as x in the highest field.
        // x = +0.5·√½·…: use magnitudes 100 (x), 200 (y, negative), 0 (z).
        let rot = UInt32(3) << 30 | UInt32(100) << 20 | UInt32(1 << 9 | 200) << 10 | 0
        let c = try #require(splats(try loadBytes(hostile.gzip(payload(version: 3, degree: 1, rotation: le(rot))), "a.spz")))
        #expect(c.count == 1 && c.shDegree == 1)
        #expect(c.positions[0] == Vec3(1, -2, 3))                      // RUB → RDF: (x, −y, −z)
        #expect(c.opacities[0] == 1)
        #expect(maxDiff(c.dc[0], (Vec3(38, 128, 217) / 255 - 0.5) / 0.15) < 1e-6)
        #expect(maxDiff(c.scales[0], Vec3(1, expf(-1), expf(-2))) < 1e-6)
        let h = Float(0.5).squareRoot()
        let x = h * 100 / 511, y = -h * 200 / 511
        let w = (1 - x * x - y * y).squareRoot()
        let q = c.rotations[0]
        #expect(abs(q.w - w) < 1e-6 && abs(q.x - x) < 1e-6 && abs(q.y - (-y)) < 1e-6 && abs(q.z) < 1e-6)
        // Band 1 signs for RUB → RDF: [−1, −1, +1].
        for k in 0..<3 { for ch in 0..<3 {
            let raw = Float(k * 3 + ch + 1) / 128
            #expect(c.shRest[k * 3 + ch] == raw * [-1, -1, 1][k])
        } }
    }

    @Test func v2RotationAndDegree4Kept() throws {
        let c = try #require(splats(try loadBytes(hostile.gzip(payload(version: 2, degree: 4, rotation: [128, 128, 255])), "b.spz")))
        #expect(c.shDegree == 4 && c.shRest.count == 72)
        // xyz = b/127.5 − 1 → (0.0039, 0.0039, 1); y, z negated for RDF.
        let q = c.rotations[0]
        #expect(abs(q.z + 1) < 1e-3 && abs(q.w) < 0.02)
        // Band 3's last coefficient (+1) and all of band 4, with the RUB → RDF signs of
        // nianticlabs/spz: [xy, yz, xy, yz, 1, xz, 1, xz, y] → [−1, +1, −1, +1, +1, −1, +1, −1, −1].
        #expect(c.shRest[14 * 3] == Float(14 * 3 + 1) / 128)
        let band4: [Float] = [-1, 1, -1, 1, 1, -1, 1, -1, -1]
        for k in 15..<24 { for ch in 0..<3 {
            #expect(c.shRest[k * 3 + ch] == Float(k * 3 + ch + 1) / 128 * band4[k - 15], "k \(k) c \(ch)")
        } }
    }

    @Test func antialiasedFlag() throws {
        for flags: UInt8 in [0, 1, 0x81] {
            var b = payload(version: 3, degree: 0, rotation: le(UInt32(3) << 30))
            b[14] = flags
            let (_, info) = try SceneFile.loadWithInfo(data: Data(hostile.gzip(b)), name: "aa.spz")
            #expect(info.antialiased == (flags & 1 == 1))
            #expect(info.text.contains("antialiased") == (flags & 1 == 1))
            #expect(info.warnings.isEmpty)
        }
        let (_, ply) = try SceneFile.loadWithInfo(data: Data(GaussianPLYWriter.encode(syntheticCloud(count: 2, degree: 0))), name: "p.ply")
        #expect(ply.antialiased == nil)
    }

    @Test func bigEndianGaussianPLYMatchesLittleEndian() throws {
        let le = GaussianPLYWriter.encode(syntheticCloud(count: 50, degree: 2))
        let text = String(decoding: le.prefix(4000), as: UTF8.self)
        let headerEnd = try #require(text.range(of: "end_header\n")).upperBound.utf16Offset(in: text)
        var be = Array(String(text.prefix(headerEnd)).replacingOccurrences(of: "binary_little_endian", with: "binary_big_endian").utf8)
        var i = headerEnd
        while i < le.count { be += le[i..<(i + 4)].reversed(); i += 4 }
        let a = try #require(splats(try loadBytes(le, "le.ply")))
        let b = try #require(splats(try loadBytes(be, "be.ply")))
        #expect(a.positions == b.positions && a.shRest == b.shRest && a.opacities == b.opacities && a.rotations == b.rotations)
    }
}
