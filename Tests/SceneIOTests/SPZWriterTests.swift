// SceneIOTests — the .spz writer: v3 (gzip) and v4 (zstd + TOC) round trips through our reader
// within the format's quantisation, SH degrees 0–4, byte layout, flags, far scenes, errors, and
// the real train scene re-written.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct SPZWriterTests {
    /// Expects `b` (read back) to equal `a` within the quantisation of .spz with `fb` fractional
    /// bits and the default SH bits (band 1: 8-wide buckets, bands 2–4: 16-wide).
    static func expectWithinQuantisation(_ a: SplatCloud, _ b: SplatCloud, fractionalBits fb: Int = 12,
                                         sourceLocation: SourceLocation = #_sourceLocation) -> (position: Float, degrees: Float, sh: Float) {
        #expect(a.count == b.count && a.shDegree == b.shDegree, sourceLocation: sourceLocation)
        var worst: (position: Float, degrees: Float, sh: Float) = (0, 0, 0)
        let r = a.shRestCount
        for i in 0..<min(a.count, b.count) {
            let dp = maxDiff(a.positions[i], b.positions[i])
            worst.position = max(worst.position, dp)
            #expect(dp <= 0.5 / Float(1 << fb) + 1e-6 * max(1, a.positions[i].length), "position \(i)", sourceLocation: sourceLocation)
            let deg = angle(a.rotations[i], b.rotations[i]) * 180 / .pi
            worst.degrees = max(worst.degrees, deg)
            // 9-bit fields of ±√½: the three stored components err by ≤ √½/1022; rebuilding the
            // largest (≥ ½) from them can double that, so the worst case is ~0.35°, typically < 0.1°.
            #expect(deg < 0.4, "rotation \(i): \(deg)°", sourceLocation: sourceLocation)
            let la = Vec3(logf(a.scales[i].x), logf(a.scales[i].y), logf(a.scales[i].z))
            let lb = Vec3(logf(b.scales[i].x), logf(b.scales[i].y), logf(b.scales[i].z))
            #expect(maxDiff(la, lb) <= 0.5 / 16 + 1e-5, "log-scale \(i)", sourceLocation: sourceLocation)
            #expect(abs(a.opacities[i] - b.opacities[i]) <= 0.5 / 255 + 1e-6, "opacity \(i)", sourceLocation: sourceLocation)
            #expect(maxDiff(a.dc[i], b.dc[i]) <= 0.5 / (0.15 * 255) + 1e-5, "dc \(i)", sourceLocation: sourceLocation)
            for k in 0..<r { for c in 0..<3 {
                let j = (i * r + k) * 3 + c
                let d = abs(a.shRest[j] - b.shRest[j])
                worst.sh = max(worst.sh, d)
                // Half a bucket plus half a byte step (and the clamp at 127/128).
                let tol: Float = (k < 3 ? 4.5 : 8.5) / 128 + 1e-6
                #expect(d <= tol, "sh \(i) \(k) \(c): \(a.shRest[j]) vs \(b.shRest[j])", sourceLocation: sourceLocation)
            } }
        }
        return worst
    }

    @Test(arguments: [3, 4], [0, 1, 2, 3, 4])
    func roundTrip(version: Int, degree: Int) throws {
        let c = syntheticCloud(count: 400, degree: degree, seed: UInt64(10 + degree))
        let bytes = try SPZWriter.encode(c, options: SPZWriteOptions(version: version))
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(bytes), name: "rt.spz")
        let back = try #require(splats(scene))
        let worst = Self.expectWithinQuantisation(c, back)
        print("spz v\(version) degree \(degree): \(bytes.count) bytes for \(c.count) splats; worst position \(worst.position) m, rotation \(worst.degrees)°, SH \(worst.sh)")
        #expect(info.version == "\(version)" && info.antialiased == false && info.warnings.isEmpty)
        #expect(info.variant == (version == 3 ? "gzip (RUB→RDF)" : "zstd streams (RUB→RDF)"))
        // Values read back sit on the grid: writing them again changes nothing but rotation words
        // whose largest components tie or whose zero field carried a sign (the same rotation).
        let again = try #require(splats(try loadBytes(try SPZWriter.encode(back, options: SPZWriteOptions(version: version)), "again.spz")))
        #expect(again.positions == back.positions && again.opacities == back.opacities && again.shRest == back.shRest)
        #expect(again.dc == back.dc && again.scales == back.scales)
        for i in 0..<c.count { #expect(angle(again.rotations[i], back.rotations[i]) < 0.004, "rotation \(i)") }   // one 9-bit step
    }

    @Test func v4Layout() throws {
        for degree in [0, 3] {
            let c = syntheticCloud(count: 50, degree: degree)
            let b = try SPZWriter.encode(c, options: SPZWriteOptions(version: 4, antialiased: true))
            b.withUnsafeBytes { raw in
                let v = ByteView(bytes: raw, file: "t")
                #expect(v.u32(0) == 0x5053_474e && v.u32(4) == 4 && v.u32(8) == 50)
                #expect(v.u8(12) == UInt8(degree) && v.u8(13) == 12 && v.u8(14) == 1)
                let streams = Int(v.u8(15))
                #expect(streams == (degree == 0 ? 5 : 6))                 // an empty SH stream is left out
                #expect(v.u32(16) == 32)
                var end = 32 + streams * 16
                var raws: [UInt64] = []
                for s in 0..<streams { end += Int(v.u64(32 + s * 16)); raws.append(v.u64(40 + s * 16)) }
                #expect(end == b.count)                                   // streams back to back to the end
                let sh = UInt64(50 * SplatCloud.restCount(degree: degree) * 3)
                #expect(raws == [450, 50, 150, 150, 200] + (degree == 0 ? [] : [sh]))
            }
        }
    }

    @Test func v3HeaderAndPayloadSize() throws {
        let c = syntheticCloud(count: 10, degree: 4)
        let b = try SPZWriter.encode(c, options: SPZWriteOptions(antialiased: true))
        #expect(b[0] == 0x1f && b[1] == 0x8b)
        let raw = try b.withUnsafeBytes { try Decompress.gunzip($0, limit: 1 << 20, file: "t") }
        #expect(Array(raw[0..<16]) == le(UInt32(0x5053_474e)) + le(UInt32(3)) + le(UInt32(10)) + [4, 12, 1, 0])
        #expect(raw.count == 16 + 10 * (9 + 1 + 3 + 3 + 4 + 72))
    }

    @Test func quantisationMatchesTheFormat() throws {
        // One splat with values on the grid: exact bytes.
        var c = SplatCloud(shDegree: 1)
        c.append(position: Vec3(1, -2, 3), scale: Vec3(1, expf(-1), expf(-2)),
                 rotation: .identity, opacity: 1, dc: (Vec3(38, 128, 217) / 255 - 0.5) / 0.15,
                 rest: [0.5, -0.25, 0, 0.0625, 1, -1, 0.03, 0, 0])
        let raw = try SPZWriter.encode(c).withUnsafeBytes { try Decompress.gunzip($0, limit: 4096, file: "t") }
        let p = Array(raw[16...])
        // RUB: (1, 2, −3) · 4096 as 24-bit little-endian.
        #expect(Array(p[0..<9]) == [0x00, 0x10, 0x00, 0x00, 0x20, 0x00, 0x00, 0xD0, 0xFF])
        #expect(p[9] == 255)                                              // alpha
        #expect(Array(p[10..<13]) == [38, 128, 217])                      // colour
        #expect(Array(p[13..<16]) == [160, 144, 128])                     // (ln s + 10)·16
        #expect(Array(p[16..<20]) == le(UInt32(3) << 30))                 // identity: largest w, rest 0
        // Band 1 signs RDF → RUB [−1, −1, +1]; 8-wide buckets: 128 + round(v·128) → centre.
        // k0: −0.5, 0.25, 0 → 64, 160, 128; k1: −0.0625, −1, 1 → 120, 0, 256 clamped to 255.
        #expect(Array(p[20..<26]) == [64, 160, 128, 120, 0, 255])
        // 0.03·128 = 3.84 → 4 → 132 → (132 + 4) / 8 · 8 = 136.
        #expect(Array(p[26..<29]) == [136, 128, 128])
    }

    @Test func rotationsAcrossTheSphere() throws {
        // Every "largest" index and both signs of it.
        var c = SplatCloud(shDegree: 0)
        let qs = [Quaternion(w: 0.9, x: 0.1, y: -0.3, z: 0.2), Quaternion(w: -0.1, x: -0.9, y: 0.3, z: 0.2),
                  Quaternion(w: 0.2, x: 0.1, y: 0.95, z: -0.2), Quaternion(w: 0.3, x: -0.4, y: 0.1, z: -0.85),
                  Quaternion(w: 0.5, x: 0.5, y: 0.5, z: 0.5), Quaternion(w: 0, x: 0, y: 0, z: 1), Quaternion(w: 0, x: 0, y: 0, z: 0)]
        for q in qs { c.append(position: .zero, scale: Vec3(0.1, 0.2, 0.3), rotation: q.normalized, opacity: 0.5, dc: .zero) }
        for v in [3, 4] {
            let back = try #require(splats(try loadBytes(try SPZWriter.encode(c, options: SPZWriteOptions(version: v)), "q.spz")))
            for i in 0..<qs.count { #expect(angle(back.rotations[i], c.rotations[i]) * 180 / .pi < 0.4, "\(i)") }
        }
    }

    @Test func farScenesLowerTheFractionalBits() throws {
        var c = syntheticCloud(count: 20, degree: 0)
        c.positions[3] = Vec3(3000, -10, 2)                               // > 2048 m: 11 fractional bits
        let b = try SPZWriter.encode(c)
        let raw = try b.withUnsafeBytes { try Decompress.gunzip($0, limit: 16, file: "t") }
        #expect(raw[13] == 11)
        let back = try #require(splats(try loadBytes(b, "far.spz")))
        _ = Self.expectWithinQuantisation(c, back, fractionalBits: 11)
        c.positions[3] = Vec3(-9e6, 0, 0)
        let far = #expect(throws: SceneIOError.self) { try SPZWriter.encode(c) }
        #expect(far?.description.contains("8388607") == true)
        c.positions[3] = Vec3(.nan, 0, 0)
        let nan = #expect(throws: SceneIOError.self) { try SPZWriter.encode(c) }
        #expect(nan?.description.contains("row 3") == true)
    }

    @Test func badOptionsAndEmptyClouds() {
        let c = syntheticCloud(count: 3, degree: 1)
        for o in [SPZWriteOptions(version: 2), SPZWriteOptions(version: 5), SPZWriteOptions(fractionalBits: 24),
                  SPZWriteOptions(sh1Bits: 0), SPZWriteOptions(shRestBits: 9)] {
            #expect(throws: SceneIOError.self) { try SPZWriter.encode(c, options: o) }
        }
        let empty = #expect(throws: SceneIOError.self) { try SPZWriter.encode(SplatCloud(shDegree: 0), file: "e.spz") }
        #expect(empty?.description.hasPrefix("e.spz: unsupported") == true)
    }

    @Test func eightBitSHIsNearlyLossless() throws {
        let c = syntheticCloud(count: 100, degree: 3)
        let back = try #require(splats(try loadBytes(try SPZWriter.encode(c, options: SPZWriteOptions(sh1Bits: 8, shRestBits: 8)), "sh8.spz")))
        for j in 0..<c.shRest.count { #expect(abs(c.shRest[j] - back.shRest[j]) <= 0.5 / 128 + 1e-6) }
    }

    @Test func convertWritesSPZAndKeepsTheAntialiasFlag() throws {
        let dir = TestData.temporaryDirectory("sceneio-spz")
        let src = dir.appendingPathComponent("a.ply").path
        let cloud = syntheticCloud(count: 60, degree: 4)
        try GaussianPLYWriter.write(cloud, to: src)
        let v3 = dir.appendingPathComponent("b.spz").path, v4 = dir.appendingPathComponent("c.spz").path
        try SceneFile.convert(input: src, output: v3)
        try SceneFile.convert(input: src, output: v4, spz: SPZWriteOptions(version: 4, antialiased: true))
        let (s3, i3) = try SceneFile.loadWithInfo(path: v3)
        let (s4, i4) = try SceneFile.loadWithInfo(path: v4)
        #expect(i3.version == "3" && i3.antialiased == false && i3.shDegree == 4)
        #expect(i4.version == "4" && i4.antialiased == true)
        _ = Self.expectWithinQuantisation(cloud, try #require(splats(s3)))
        _ = Self.expectWithinQuantisation(cloud, try #require(splats(s4)))
        // .spz → .spz keeps the flag unless told otherwise.
        let v4b = dir.appendingPathComponent("d.spz").path, v4c = dir.appendingPathComponent("e.spz").path
        try SceneFile.convert(input: v4, output: v4b)
        try SceneFile.convert(input: v4, output: v4c, spz: SPZWriteOptions(antialiased: false))
        #expect(try SceneFile.loadWithInfo(path: v4b).info.antialiased == true)
        #expect(try SceneFile.loadWithInfo(path: v4c).info.antialiased == false)
        #expect(throws: SceneIOError.self) { try SceneFile.save(.points(PointCloud(positions: [.zero])), to: v4b) }
    }

    // MARK: the real train scene

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func trainSceneRewritten() throws {
        let base = "splats/ms-test-splat.3-points-from-train"
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.path(base + ".spz")))
        let original = try #require(splats(try SceneFile.load(data: data, name: "train.spz")))
        let ply = try #require(splats(try loadTestFile(base + ".ply")))
        #expect(original.count == 3 && original.shDegree == 3)
        for version in [3, 4] {
            let bytes = try SPZWriter.encode(original, options: SPZWriteOptions(version: version))
            let again = try #require(splats(try loadBytes(bytes, "again.spz")))
            // Values read from an .spz sit on the grid: writing them again loses nothing.
            #expect(again.positions == original.positions, "v\(version)")
            #expect(again.opacities == original.opacities && again.shRest == original.shRest, "v\(version)")
            for i in 0..<3 {
                #expect(maxDiff(again.dc[i], original.dc[i]) < 1e-6 && maxDiff(again.scales[i], original.scales[i]) <= 1e-6 * original.scales[i].max())
                #expect(angle(again.rotations[i], original.rotations[i]) < 1e-3, "v\(version) rotation \(i)")
            }
            // And from the .ply: within quantisation.
            let fromPLY = try #require(splats(try loadBytes(try SPZWriter.encode(ply, options: SPZWriteOptions(version: version)), "p.spz")))
            let worst = Self.expectWithinQuantisation(ply, fromPLY)
            print("train .ply → .spz v\(version) → read: worst position \(worst.position) m, rotation \(worst.degrees)°, SH \(worst.sh)")
        }
        // Our v3 payload equals the reference writer's, byte for byte, when fed what it wrote.
        let theirs = try data.withUnsafeBytes { try Decompress.gunzip($0, limit: 1 << 20, file: "t") }
        let ours = try SPZWriter.encode(original).withUnsafeBytes { try Decompress.gunzip($0, limit: 1 << 20, file: "t") }
        #expect(ours.count == theirs.count)
        let differing = zip(ours, theirs).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        print("train .spz re-encoded: \(differing.count) of \(theirs.count) inflated bytes differ: \(differing.prefix(20))")
        #expect(Array(ours[0..<16]) == Array(theirs[0..<16]))
    }
}
