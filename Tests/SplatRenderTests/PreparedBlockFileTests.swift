// SplatRenderTests — prepared blocks kept on disk (`PreparedBlockFile`): mapped back, they equal the
// blocks prepared from the cloud (the reference) byte for byte and assemble and render alike; every
// kind of damage is refused with one line naming the file and the byte.
import Foundation
import RenderCore
@testable import SplatRender
import Testing
import TestSupport

struct PreparedBlockFileTests {
    /// A cloud of `n` random splats of SH degree `degree`.
    static func cloud(_ n: Int, degree: Int, seed: UInt64 = 3) -> SplatCloud {
        var random = SeededRandom(seed: seed)
        var c = SplatCloud(shDegree: degree)
        for _ in 0..<n {
            c.positions.append(Vec3(random.normal(), random.normal(), random.normal() - 4))
            c.scales.append(Vec3(random.uniform(), random.uniform(), random.uniform()) * 0.05 + 0.01)
            c.rotations.append(Quaternion(w: random.normal(), x: random.normal(), y: random.normal(), z: random.normal()))
            c.opacities.append(random.uniform())
            c.dc.append(Vec3(random.normal(), random.normal(), random.normal()))
            for _ in 0..<SplatCloud.restCount(degree: degree) * 3 { c.shRest.append(random.normal() * 0.2) }
        }
        return c
    }

    /// Every byte a block holds: fields, SH rest, source indices, then count and bounds.
    static func bytes(_ b: PreparedSplats) -> [UInt8] {
        var out: [UInt8] = []
        out += UnsafeRawBufferPointer(start: b.fields, count: PreparedSplats.fieldCount * b.fieldStride * 4)
        out += UnsafeRawBufferPointer(start: b.rest, count: PreparedBlockFile.restBytes(count: b.count, restCount: b.restCount))
        out += UnsafeRawBufferPointer(start: b.sourceIndex, count: b.fieldStride * 4)
        withUnsafeBytes(of: (b.count, b.paddedCount, b.fieldStride, b.shDegree)) { out += $0 }
        withUnsafeBytes(of: (b.bounds.min, b.bounds.max)) { out += $0 }
        return out
    }

    static func file(_ name: String) -> String { TestData.temporaryDirectory("prepared-blocks").appendingPathComponent(name).path }

    @Test("blocks mapped from their file equal the blocks prepared from the cloud, byte for byte, and draw the same frame",
          arguments: [0, 1, 3])
    func roundTrip(degree: Int) throws {
        let cloud = Self.cloud(1000, degree: degree)
        let ranges = [0..<333, 333..<340, 340..<340, 340..<1000]   // uneven groups of 8, an empty one
        let prepared = ranges.map { PreparedSplats(cloud, range: $0, shDegree: degree) }
        let path = Self.file("blocks-\(degree)")
        try PreparedBlockFile.write(prepared, shDegree: degree, to: path)
        let mapped = try PreparedBlockFile.map(path, shDegree: degree, counts: ranges.map(\.count))
        #expect(mapped.count == prepared.count)
        for (k, (a, b)) in zip(prepared, mapped).enumerated() {
            let b = try #require(b)
            #expect(Self.bytes(a) == Self.bytes(b), "block \(k)")
        }
        // Assembled and drawn, the mapped blocks give the frame the prepared ones give.
        func frame(_ blocks: [PreparedSplats]) -> [UInt32] {
            let assembly = PreparedSplats(assemblyCapacity: 8, shDegree: degree)
            assembly.assemble(blocks)
            let fb = Framebuffer(width: 96, height: 64)
            _ = SplatRenderer(threads: 2).render(assembly, camera: SplatTestHelpers.lookAtCamera(eye: Vec3(0, 0, 0), target: Vec3(0, 0, -4), width: 96, height: 64), into: fb)
            return fb.colorArray
        }
        let reference = frame(prepared)
        #expect(Set(reference).count > 10, "the frame shows the splats")
        #expect(frame(mapped.map { $0! }) == reference)
        // No temporary file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(!left.contains { $0.hasPrefix(".tmp-") }, "\(left)")
    }

    @Test("the mapping outlives the file's removal and stays alive while any block does")
    func mappingLifetime() throws {
        let cloud = Self.cloud(64, degree: 1)
        let path = Self.file("lifetime")
        try PreparedBlockFile.write([PreparedSplats(cloud, range: 0..<64, shDegree: 1)], shDegree: 1, to: path)
        let reference = Self.bytes(PreparedSplats(cloud, range: 0..<64, shDegree: 1))
        let block = try PreparedBlockFile.map(path, shDegree: 1, counts: [64])[0]
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: PreparedBlockFile.Problem.self) { try PreparedBlockFile.map(path, shDegree: 1, counts: [64]) }
        #expect(Self.bytes(try #require(block)) == reference)
    }

    /// Writes two blocks (SH 1) and returns the file's bytes and path.
    static func sample(_ name: String) throws -> (path: String, bytes: [UInt8]) {
        let cloud = Self.cloud(100, degree: 1)
        let path = Self.file(name)
        try PreparedBlockFile.write([PreparedSplats(cloud, range: 0..<60, shDegree: 1), PreparedSplats(cloud, range: 60..<100, shDegree: 1)],
                                    shDegree: 1, to: path)
        return (path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("a damaged, foreign or stale file, or one for other blocks, is one line naming the file and the byte")
    func damage() throws {
        let (path, good) = try Self.sample("damage")
        func problem(_ bytes: [UInt8], degree: Int = 1, counts: [Int?] = [60, 40]) -> PreparedBlockFile.Problem? {
            try? Data(bytes).write(to: URL(fileURLWithPath: path))
            do { _ = try PreparedBlockFile.map(path, shDegree: degree, counts: counts); return nil } catch let p as PreparedBlockFile.Problem { return p } catch { return nil }
        }
        func poked(_ offset: Int, _ value: UInt8) -> [UInt8] { var b = good; b[offset] ^= value; return b }
        let cases: [(String, PreparedBlockFile.Problem?, Int, String)] = [
            ("truncated to its header", problem(Array(good[0..<40])), 40, "ends before its block table"),
            ("cut short", problem(Array(good.dropLast(100))), 24, "the file has"),
            ("longer", problem(good + [0, 0, 0, 0]), 24, "the file has"),
            ("not ours", problem(poked(0, 0xFF)), 0, "not a prepared-block file"),
            ("another preparation's", problem(poked(8, 1)), 8, "stale"),
            ("another SH degree", problem(good, degree: 2), 16, "SH degree 1, expected 2"),
            ("other blocks", problem(good, counts: [60, 40, 5]), 20, "2 blocks, expected 3"),
            ("another count", problem(good, counts: [60, 41]), 64 + 64, "block 1 holds 40 splats, expected 41"),
            ("a block expected absent", problem(good, counts: [60, nil]), 64 + 64, "expected none"),
            ("a moved block", problem(poked(64 + 8, 64)), 64 + 8, "not where the file has room"),
        ]
        for (what, p, offset, text) in cases {
            let p = try #require(p, "\(what): mapped")
            #expect(p.file == path && p.offset == offset && p.description.contains(text), "\(what): \(p)")
            #expect(!p.description.contains("\n"))
        }
        #expect(problem(good) == nil, "the intact file maps")
        #expect(throws: PreparedBlockFile.Problem.self) { try PreparedBlockFile.map(path + ".missing", shDegree: 1, counts: [60, 40]) }
    }
}
