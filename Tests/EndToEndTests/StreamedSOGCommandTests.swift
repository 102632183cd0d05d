// Streamed SOG through the real binary: info lists the levels, render draws a partial copy with a
// warning line, and bad --lod / --splat-budget values are one-line errors.
import Foundation
import ImageIO
import TestSupport
import Testing

@Suite("Streamed SOG on the command line", .enabled(if: TestData.isAvailable, TestData.skipMessage))
struct StreamedSOGCommandTests {
    static let playbot = TestData.path("splats/sog/playbot-lod")

    static func binary() throws -> String {
        try #require(BinaryLocator.splatframe(), "build the package first (swift build): no .build/*/splatframe")
    }

    @Test func infoListsLevelsAndSaysItIsStreamed() throws {
        let r = try BinaryLocator.run(try Self.binary(), ["info", Self.playbot + "/lod-meta.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("streamed SOG") && r.stdout.contains("7 levels"), "\(r.stdout)")
        for (level, count) in [(0, 500_000), (3, 31_000), (6, 1_873)] {
            #expect(r.stdout.contains("element level \(level) \(count)"), "\(r.stdout)")
        }
    }

    @Test func renderDrawsWhatIsThereAndWarnsAboutTheRest() throws {
        let dir = TestData.temporaryDirectory("lod-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("playbot")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in try FileManager.default.contentsOfDirectory(atPath: Self.playbot) where item != "1_0" {
            try FileManager.default.copyItem(atPath: Self.playbot + "/" + item, toPath: copy.appendingPathComponent(item).path)
        }
        let out = dir.appendingPathComponent("o.png").path
        let r = try BinaryLocator.run(try Self.binary(), ["render", copy.path, "--eye", "0,0,0.6", "--size", "160x90",
                                                          "--splat-budget", "40k", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("1_0/meta.json") && warnings[0].contains("missing"), "\(r.stderr)")
        let image = try ImageFile.load(out)
        #expect(image.width == 160 && image.height == 90)
    }

    @Test("bad level-of-detail options are one-line errors", arguments: [
        (["--lod", "7"], "levels 0…6"),
        (["--lod", "-1"], "--lod"),
        (["--splat-budget", "0"], "--splat-budget"),
        (["--splat-budget", "lots"], "--splat-budget"),
    ])
    func badOptions(extra: [String], mentions: String) throws {
        let r = try BinaryLocator.run(try Self.binary(), ["render", Self.playbot, "--eye", "0,0,0.6", "--size", "16x9", "--out", "/tmp/lod-x.png"] + extra)
        #expect(r.status == 2, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(mentions), "\(r.stderr)")
    }
}
