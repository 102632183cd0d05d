// SceneIOTests — GaussianSplats3D `.ksplat`: files from an independent writer (Scripts/make-ksplat.py,
// following GaussianSplats3D's SplatBuffer layout) decoded against the PLY they were written from,
// at compression levels 0, 1 and 2 and SH degrees 0–3; hostile headers are one-line errors.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

/// The `.ksplat` seeds in Fuzz/corpus/ksplat (written by Scripts/make-ksplat.py from the shared
/// 3-point PLY), and helpers shared by the suites below.
enum KSplatFixtures {
    static let folder = TestData.projectRoot.appendingPathComponent("Fuzz/corpus/ksplat")
    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: folder.appendingPathComponent(name))) }
    /// The source of the seeds.
    static let threePoints = "splats/ms-test-splat.3-points-from-train.ply"

    /// True when `python3` with numpy runs (to write files from the larger shared PLY).
    static let pythonAvailable: Bool = {
        (try? BinaryLocator.run("/usr/bin/env", ["python3", "-c", "import numpy"]).status) == 0
    }()

    /// Writes `ply` as a `.ksplat` with the script; returns the file and the source row of each splat.
    static func write(_ ply: String, _ arguments: [String]) throws -> (URL, [Int]) {
        let dir = TestData.temporaryDirectory("ksplat")
        let out = dir.appendingPathComponent("out.ksplat"), order = dir.appendingPathComponent("order.txt")
        let script = TestData.projectRoot.appendingPathComponent("Scripts/make-ksplat.py").path
        let r = try BinaryLocator.run("/usr/bin/env", ["python3", script, TestData.path(ply), out.path, "--order", order.path] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try String(contentsOf: order, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        return (out, rows)
    }

    /// Checks decoded splat `i` against source splat `j` within the tolerances of `level`.
    static func expectClose(_ k: SplatCloud, _ i: Int, _ src: SplatCloud, _ j: Int, level: Int, positionStep: Float,
                            shStep: Float, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = src.positions[j]
        let posTol = (level == 0 ? 0 : positionStep) + 2e-6 * max(1, abs(p.x) + abs(p.y) + abs(p.z))
        #expect(maxDiff(k.positions[i], p) <= posTol, "position \(i): \(k.positions[i]) vs \(p)", sourceLocation: sourceLocation)
        // Colour and opacity bytes are floor(value · 255) of the clamped source values.
        let c0 = k.baseColor(i), c1 = src.baseColor(j)
        for a in 0..<3 {
            let s = min(max(c1[a], 0), 1)
            #expect(c0[a] <= s + 1e-5 && c0[a] >= s - 1 / 255 - 1e-5, "colour \(i).\(a): \(c0[a]) vs \(s)", sourceLocation: sourceLocation)
        }
        #expect(k.opacities[i] <= src.opacities[j] + 1e-5 && k.opacities[i] >= src.opacities[j] - 1 / 255 - 1e-5,
                "opacity \(i): \(k.opacities[i]) vs \(src.opacities[j])", sourceLocation: sourceLocation)
        let relative: Float = level == 0 ? 1e-6 : 1.0 / 1024          // float32, else half floats
        for a in 0..<3 {
            let s = src.scales[j][a]
            #expect(abs(k.scales[i][a] - s) <= relative * s + (level == 0 ? 0 : 6e-8), "scale \(i).\(a): \(k.scales[i][a]) vs \(s)", sourceLocation: sourceLocation)
        }
        // Rotations component by component (q and −q are the same rotation); half floats keep 11 bits.
        let q = k.rotations[i], r = src.rotations[j]
        let sign: Float = q.w * r.w + q.x * r.x + q.y * r.y + q.z * r.z < 0 ? -1 : 1
        let qd = max(abs(q.w - sign * r.w), abs(q.x - sign * r.x), abs(q.y - sign * r.y), abs(q.z - sign * r.z))
        #expect(qd <= (level == 0 ? 1e-6 : 1.5e-3), "rotation \(i): \(q) vs \(r)", sourceLocation: sourceLocation)
        let kept = k.shRestCount
        for m in 0..<(kept * 3) {
            let s = src.shRest[j * src.shRestCount * 3 + m], d = k.shRest[i * kept * 3 + m]
            let tol: Float = level == 0 ? 1e-6 : level == 1 ? abs(s) / 1024 + 1e-7 : shStep + 1e-5
            #expect(abs(d - s) <= tol, "SH \(i) coefficient \(m / 3) channel \(m % 3): \(d) vs \(s)", sourceLocation: sourceLocation)
        }
    }
}

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct KSplatTests {
    /// Each seed (levels 0/1/2, SH 0–3, one or two sections, full or partial buckets) against the PLY.
    @Test(arguments: [("three-l0-sh2.ksplat", 0, 2), ("three-l1-sh1.ksplat", 1, 1), ("three-l2-sh3.ksplat", 2, 3), ("three-l2-sh0.ksplat", 2, 0)])
    func seedsMatchTheirPLY(name: String, level: Int, degree: Int) throws {
        let src = try #require(splats(try loadTestFile(KSplatFixtures.threePoints)))
        let bytes = try KSplatFixtures.bytes(name)
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(bytes), name: name)
        let k = try #require(splats(scene))
        #expect(info.format == .ksplat && info.version == "0.1" && info.variant.hasPrefix("compression level \(level)"), "\(info.variant)")
        #expect(k.count == 3 && k.shDegree == degree)
        let (lo, hi, block) = bytes.withUnsafeBytes { raw in
            let v = ByteView(bytes: raw, file: name)
            return (v.f32(36), v.f32(40), v.f32(4096 + 16))                 // SH range; the first section's block size
        }
        for i in 0..<k.count {
            // The writer sorts splats by distance: match each to its source by position.
            let j = (0..<src.count).min { maxDiff(src.positions[$0], k.positions[i]) < maxDiff(src.positions[$1], k.positions[i]) }!
            KSplatFixtures.expectClose(k, i, src, j, level: level, positionStep: block / 2 / 32767, shStep: (hi - lo) / 255)
        }
    }

    /// The larger capture at every level, written as GaussianSplats3D does by default (5 m blocks,
    /// 256-splat buckets, SH degree 2), in three sections; every splat checked by its source row.
    @Test(.enabled(if: KSplatFixtures.pythonAvailable, "skipped: python3 with numpy is needed to write the .ksplat files"),
          arguments: [0, 1, 2])
    func fruitDropsAtEveryLevel(level: Int) throws {
        let ply = "splats/fruit_drops_minimal.ply"
        let src = try #require(splats(try loadTestFile(ply)))
        let (file, rows) = try KSplatFixtures.write(ply, ["--level", "\(level)", "--sh-degree", "2", "--section-size", "2000", "--alpha-threshold", "0"])
        let (scene, info) = try SceneFile.loadWithInfo(path: file.path)
        let k = try #require(splats(scene))
        #expect(k.count == src.count && rows.count == src.count && k.shDegree == 2)
        #expect(info.elements.first { $0.name == "section" }?.count == 3)
        if level > 0 { #expect((info.elements.first { $0.name == "bucket" }?.count ?? 0) > 3) }
        let bytes = Array(try Data(contentsOf: file))
        let (lo, hi) = bytes.withUnsafeBytes { (ByteView(bytes: $0, file: "k").f32(36), ByteView(bytes: $0, file: "k").f32(40)) }
        for i in 0..<k.count { KSplatFixtures.expectClose(k, i, src, rows[i], level: level, positionStep: 2.5 / 32767, shStep: (hi - lo) / 255) }
    }
}

/// Headers that lie: one-line errors naming the file and the byte, before any large allocation.
struct KSplatHostileTests {
    func expectError(_ bytes: [UInt8], _ name: String, _ contains: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        guard let e = loadError(bytes, name) else { Issue.record("no error for \(name)", sourceLocation: sourceLocation); return }
        let d = e.description
        #expect(!d.contains("\n") && d.hasPrefix("\(name): byte "), "\(d)", sourceLocation: sourceLocation)
        for c in contains { #expect(d.contains(c), "\(d)", sourceLocation: sourceLocation) }
    }

    func patched(_ b: [UInt8], _ offset: Int, _ value: [UInt8]) -> [UInt8] {
        var c = b
        c.replaceSubrange(offset..<(offset + value.count), with: value)
        return c
    }

    @Test func seedsLoadAndAreKnownByTheirExtension() throws {
        for name in ["three-l0-sh2.ksplat", "three-l1-sh1.ksplat", "three-l2-sh3.ksplat", "three-l2-sh0.ksplat"] {
            let b = try KSplatFixtures.bytes(name)
            #expect(b.withUnsafeBytes { SceneFormat.detect($0, name: name) } == .ksplat)
            #expect(try splats(loadBytes(b, name))?.count == 3)
        }
        #expect(SceneFormat(extension: ".KSPLAT") == .ksplat)
    }

    @Test func truncatedFiles() throws {
        let b = try KSplatFixtures.bytes("three-l2-sh3.ksplat")
        expectError(Array(b.prefix(100)), "tiny.ksplat", "4096-byte")
        expectError(Array(b.prefix(4096 + 1000)), "heads.ksplat", "section headers")
        for cut in [4096 + 2048, b.count - 200, b.count - 1] {
            expectError(Array(b.prefix(cut)), "cut\(cut).ksplat", "file ends early", "section")
        }
    }

    @Test func unknownVersionAndLevel() throws {
        let b = try KSplatFixtures.bytes("three-l1-sh1.ksplat")
        expectError(patched(b, 0, [1]), "v1.ksplat", "byte 0:", "version", "1.1")
        expectError(patched(b, 1, [0]), "v0.ksplat", "version", "0.0")
        expectError(patched(b, 20, le(UInt16(3))), "lvl.ksplat", "byte 20:", "compression level")
    }

    @Test func countsThatDoNotFitTheFile() throws {
        let b = try KSplatFixtures.bytes("three-l1-sh1.ksplat")
        expectError(patched(b, 4, le(UInt32.max)), "sections.ksplat", "4294967295 section headers")
        expectError(patched(b, 4096 + 4, le(UInt32(1_000_000_000))), "splats.ksplat", "1000000000 splats")
        expectError(patched(b, 4096 + 12, le(UInt32.max)), "buckets.ksplat", "4294967295 buckets")
        expectError(patched(b, 12, le(UInt32(4))), "total.ksplat", "byte 12:", "total of 3")
        expectError(patched(b, 4096 + 40, le(UInt16(4))), "deg.ksplat", "SH degree")
    }

    @Test func bucketsThatDoNotHoldTheSplats() throws {
        let one = try KSplatFixtures.bytes("three-l1-sh1.ksplat")        // three full buckets of one splat
        expectError(patched(one, 4096 + 20, le(UInt16(8))), "stride.ksplat", "12-byte buckets")
        expectError(patched(one, 4096 + 16, le(Float.nan)), "block.ksplat", "block size")
        expectError(patched(one, 4096 + 32, le(UInt32(4))), "full.ksplat", "full and partial")
        expectError(patched(one, 4096 + 8, le(UInt32(0))), "empty.ksplat", "buckets holding")
        let partial = try KSplatFixtures.bytes("three-l2-sh3.ksplat")    // partial buckets only
        let base = 4096 + 2 * 1024
        expectError(patched(partial, base, le(UInt32(0))), "short.ksplat", "buckets holding")
        // Lengths that claim more than the section holds are harmless: splats go bucket by bucket.
        #expect(try splats(loadBytes(patched(partial, base, le(UInt32(1_000_000))), "long.ksplat"))?.count == 3)
    }

    @Test func nonFiniteValues() throws {
        let l0 = try KSplatFixtures.bytes("three-l0-sh2.ksplat")
        let data = 4096 + 1024
        expectError(patched(l0, data, le(Float.infinity)), "pos.ksplat", "finite position")
        expectError(patched(l0, data + 12, le(Float.nan)), "scale.ksplat", "finite scale")
        expectError(patched(l0, data + 44, le(Float.nan)), "sh.ksplat", "finite SH")
        let l1 = try KSplatFixtures.bytes("three-l1-sh1.ksplat")
        let centres = 4096 + 1024                                           // no partial buckets
        expectError(patched(l1, centres, le(Float.infinity)), "centre.ksplat", "finite position")
        expectError(patched(l1, centres + 36 + 6, le(UInt16(0x7C00))), "half.ksplat", "finite scale")   // +∞ as a half float
    }
}
