// SceneIOTests — .spz extension records (flag 0x2): SPZ_ADOBE_coordinate_system honoured (Y-up
// frames; Z-up without SH) or rejected in one line; unknown records skipped with a warning; v4
// (before the TOC), gzip v3 and uncompressed v3 (after the SH block).
import Foundation
import Testing
import RenderCore
@testable import SceneIO

struct SPZExtensionTests {
    let spz = SPZTests()
    let hostile = HostileInputTests()
    /// Stored rotation (x, y, z, w order in the file): largest w; x = +√½·100/511, y = −√½·200/511, z = 0.
    let rot = UInt32(3) << 30 | UInt32(100) << 20 | UInt32(1 << 9 | 200) << 10 | 0

    func record(_ type: UInt32, _ payload: [UInt8]) -> [UInt8] { le(type) + le(UInt32(payload.count)) + payload }
    func frame(_ raw: UInt32) -> [UInt8] { record(0xADBE_0003, le(raw)) }

    /// An NGSP v4 file holding the blocks of a 16-byte-header payload, with extension records.
    func v4(_ p: [UInt8], records: [UInt8]) throws -> [UInt8] {
        let h = try p.withUnsafeBytes { try SPZReader.parseHeader(ByteView(bytes: $0, file: "t"), gzip: false) }
        var o = 16
        var streams: [([UInt8], Int)] = []
        for size in SPZReader.Header(version: 4, count: h.count, degree: h.degree, fractionalBits: h.fractionalBits, flags: 0).blockSizes where size > 0 {
            streams.append((try Compress.zstd(Array(p[o..<(o + size)]), file: "t"), size))
            o += size
        }
        var out = le(UInt32(0x5053_474e)) + le(UInt32(4)) + le(UInt32(h.count))
        out += [p[12], p[13], p[14] | (records.isEmpty ? 0 : 2), UInt8(streams.count)] + le(UInt32(32 + records.count))
        out += [UInt8](repeating: 0, count: 12) + records
        for (z, n) in streams { out += le(UInt64(z.count)) + le(UInt64(n)) }
        for (z, _) in streams { out += z }
        return out
    }

    /// A v3 payload (16-byte header + blocks) with extension records after the SH block.
    func v3(degree: UInt8, records: [UInt8]) -> [UInt8] {
        var p = spz.payload(version: 3, degree: degree, rotation: le(rot)) + records
        if !records.isEmpty { p[14] |= 2 }
        return p
    }

    /// Σ = R·S²·Rᵀ (rows).
    func covariance(_ q: Quaternion, _ s: Vec3) -> [[Float]] {
        let (c0, c1, c2) = q.normalized.rotationColumns
        let m = [c0 * s.x, c1 * s.y, c2 * s.z]
        return (0..<3).map { a in (0..<3).map { b in m[0][a] * m[0][b] + m[1][a] * m[1][b] + m[2][a] * m[2][b] } }
    }

    /// The splat's covariance read with a declared frame equals T·Σ_stored·Tᵀ for T = stored → RDF.
    func expectCovarianceMapped(_ c: SplatCloud, frame raw: UInt32, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let h = Float(0.5).squareRoot()
        let x = h * 100 / 511, y = -h * 200 / 511
        let stored = covariance(Quaternion(w: (1 - x * x - y * y).squareRoot(), x: x, y: y, z: 0), c.scales[0])
        let map = try #require(SPZCoordinateSystem(raw: raw)).toRDF
        var t = [[Float]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 { t[map.axis[i]][i] = map.sign[i] }
        let got = covariance(c.rotations[0], c.scales[0])
        for a in 0..<3 { for b in 0..<3 {
            var want: Float = 0
            for i in 0..<3 { for j in 0..<3 { want += t[a][i] * stored[i][j] * t[b][j] } }
            #expect(abs(got[a][b] - want) < 1e-6, "Σ[\(a)][\(b)] frame \(raw)", sourceLocation: sourceLocation)
        } }
    }

    @Test func v4DeclaredRDFIsReadAsStored() throws {
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(try v4(v3(degree: 1, records: []), records: frame(6))), name: "rdf.spz")
        let c = try #require(splats(scene))
        #expect(c.positions[0] == Vec3(1, 2, -3))
        for k in 0..<3 { for ch in 0..<3 { #expect(c.shRest[k * 3 + ch] == Float(k * 3 + ch + 1) / 128) } }
        try expectCovarianceMapped(c, frame: 6)
        #expect(info.variant == "zstd streams (RDF as stored)")
        #expect(info.elements.last?.properties == ["SPZ_ADOBE_coordinate_system RDF"])
        #expect(info.warnings.isEmpty)
    }

    @Test func v4DeclaredLUFFlipsXAndY() throws {
        let c = try #require(splats(try loadBytes(try v4(v3(degree: 1, records: []), records: frame(7)), "luf.spz")))
        #expect(c.positions[0] == Vec3(-1, -2, -3))                  // L → −x, U → −y, F → +z
        for k in 0..<3 { for ch in 0..<3 {                            // band 1 odd in y, z, x: signs −1, +1, −1
            #expect(c.shRest[k * 3 + ch] == Float(k * 3 + ch + 1) / 128 * [-1, 1, -1][k])
        } }
        try expectCovarianceMapped(c, frame: 7)
    }

    @Test func defaultFrameIsRUBAndUnspecifiedWarns() throws {
        let plain = try #require(splats(try loadBytes(try v4(v3(degree: 0, records: []), records: []), "a.spz")))
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(try v4(v3(degree: 0, records: []), records: frame(0))), name: "zero.spz")
        let c = try #require(splats(scene))
        #expect(plain.positions[0] == Vec3(1, -2, 3) && c.positions[0] == plain.positions[0])
        #expect(c.rotations[0] == plain.rotations[0])
        try expectCovarianceMapped(c, frame: 4)
        #expect(info.warnings.count == 1 && info.warnings[0].contains("unspecified"), "\(info.warnings)")
    }

    @Test func zUpFrameWithoutSHIsTurned() throws {
        // RFU: +x right, +y forward, +z up → RDF (x, −z, y).
        let c = try #require(splats(try loadBytes(try v4(v3(degree: 0, records: []), records: frame(12)), "rfu.spz")))
        #expect(c.positions[0] == Vec3(1, 3, 2))
        try expectCovarianceMapped(c, frame: 12)
        for raw: UInt32 in 11...14 {                                  // LFU, RFU, LBD, RBD
            let d = try #require(splats(try loadBytes(try v4(v3(degree: 0, records: []), records: frame(raw)), "z.spz")))
            try expectCovarianceMapped(d, frame: raw)
            #expect(abs(d.positions[0].length - Vec3(1, 2, -3).length) < 1e-6)
        }
        // nianticlabs/spz reads these four as their (y, z)-flipped twins: refused, never guessed.
        for (raw, name) in [(9, "LFD"), (10, "RFD"), (15, "LBU"), (16, "RBU")] {
            hostile.expectError(try v4(v3(degree: 0, records: []), records: frame(UInt32(raw))), "amb.spz", contains: "byte 32", "found \"\(name)\"")
        }
    }

    @Test func zUpFrameWithSHIsRejectedInOneLine() throws {
        let bytes = try v4(v3(degree: 1, records: []), records: frame(12))
        hostile.expectError(bytes, "rfu-sh.spz", contains: "byte 32", "SPZ_ADOBE_coordinate_system", "RFU", "SH degree 1")
    }

    @Test func unknownRecordsAreSkippedWithAWarning() throws {
        let records = record(0x1234_0001, [1, 2, 3, 4, 5]) + record(0xADBE_0002, [UInt8](repeating: 0, count: 12)) + frame(6)
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(try v4(v3(degree: 2, records: []), records: records)), name: "ext.spz")
        let c = try #require(splats(scene))
        #expect(c.positions[0] == Vec3(1, 2, -3))                    // the RDF record after them still counts
        #expect(info.warnings == ["ext.spz: byte 32: skipped unknown .spz extension 0x12340001 (5 bytes)"])
        let ext = try #require(info.elements.first { $0.name == "extension" })
        #expect(ext.count == 3)
        #expect(ext.properties[1].hasPrefix("SPZ_ADOBE_safe_orbit_camera"))
    }

    @Test func badRecordsAreErrors() throws {
        hostile.expectError(try v4(v3(degree: 0, records: []), records: frame(17)), "v17.spz", contains: "byte 40", "0…16", "17")
        var long = record(0x1234_0001, [1, 2, 3, 4])
        long[4] = 200                                                 // claims 200 bytes, 4 left
        hostile.expectError(try v4(v3(degree: 0, records: []), records: long), "long.spz", contains: "byte 36", "extension record")
        hostile.expectError(try v4(v3(degree: 0, records: []), records: record(0xADBE_0003, [6, 0])), "short.spz", contains: "4-byte")
        // A second coordinate system is ignored with a warning (the first counts).
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(try v4(v3(degree: 0, records: []), records: frame(6) + frame(4))), name: "two.spz")
        #expect(splats(scene)?.positions[0] == Vec3(1, 2, -3))
        #expect(info.warnings.count == 1 && info.warnings[0].contains("second"))
    }

    @Test func gzipAndUncompressedV3ReadTrailingRecords() throws {
        let p = v3(degree: 1, records: frame(6) + record(0x4E41_0009, [9]))
        for (bytes, name) in [(hostile.gzip(p), "g.spz"), (p, "u.spz")] {
            let (scene, info) = try SceneFile.loadWithInfo(data: Data(bytes), name: name)
            let c = try #require(splats(scene))
            #expect(c.positions[0] == Vec3(1, 2, -3), "\(name)")
            #expect(c.shRest[0] == Float(1) / 128, "\(name)")
            #expect(info.warnings.count == 1 && info.warnings[0].contains("0x4E410009"), "\(info.warnings)")
            if name == "g.spz" { #expect(info.warnings[0].contains("of the inflated stream")) }
        }
        // Without the flag, bytes after the SH block are not read as records.
        var q = p
        q[14] = 0
        #expect(splats(try loadBytes(hostile.gzip(q), "n.spz"))?.positions[0] == Vec3(1, -2, 3))
    }
}
