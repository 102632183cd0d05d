// A plain capture turned into a streamed SOG through the real binary: `convert IN DIR/lod-meta.json`
// builds the levels and writes the chunks, `info` lists them, `render` draws them under a budget,
// and bad level-of-detail options are one-line errors. (No shared test data needed: the capture
// is made by `generate`.)
import Foundation
import ImageIO
import TestSupport
import Testing

@Suite("Levels of detail for a plain capture")
struct LODConvertCommandTests {
    static func binary() throws -> String {
        try #require(BinaryLocator.splatframe(), "build the package first (swift build): no .build/*/splatframe")
    }

    @Test func convertInfoRender() throws {
        let dir = TestData.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ply = dir.appendingPathComponent("room.ply").path, meta = dir.appendingPathComponent("lod/lod-meta.json").path
        let g = try BinaryLocator.run(try Self.binary(), ["generate", "12000", ply, "--scene", "room"])
        try #require(g.status == 0, "\(g.stderr)")
        let c = try BinaryLocator.run(try Self.binary(), ["convert", ply, meta, "--lod-levels", "3", "--chunk-splats", "4096"])
        #expect(c.status == 0, "\(c.stderr)")
        // Levels of about half: every pair merges to one, a few splats stay single.
        let listed = c.stdout.range(of: "3 levels: ").map { c.stdout[$0.upperBound...].prefix { $0 != ";" } } ?? ""
        let counts = listed.replacingOccurrences(of: " splats", with: "").split(separator: ",")
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(counts.count == 3 && counts[0] == 12000, "\(c.stdout)")
        if counts.count == 3 { #expect(counts[1] >= 6000 && counts[1] <= 7200 && counts[2] >= 3000 && counts[2] <= 3600, "\(c.stdout)") }
        let i = try BinaryLocator.run(try Self.binary(), ["info", meta])
        #expect(i.status == 0 && i.stdout.contains("streamed SOG") && i.stdout.contains("3 levels"), "\(i.stdout)\(i.stderr)")
        let png = dir.appendingPathComponent("o.png").path
        let r = try BinaryLocator.run(try Self.binary(), ["render", meta, "--splat-budget", "4000", "--eye", "0,0,0.6",
                                                          "--size", "320x180", "--out", png])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageFile.load(png)
        #expect(image.width == 320 && Set(image.pixels).count > 50, "a blank frame")
    }

    @Test("bad options are one-line errors", arguments: [
        (["--lod-levels", "0"], "--lod-levels"), (["--lod-levels", "17"], "--lod-levels"),
        (["--chunk-splats", "10"], "--chunk-splats"),
    ])
    func badOptions(_ extra: [String], _ mentions: String) throws {
        let r = try BinaryLocator.run(try Self.binary(), ["convert", "/nonexistent.ply", "/tmp/x/lod-meta.json"] + extra)
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(mentions), "\(r.stderr)")
    }
}
