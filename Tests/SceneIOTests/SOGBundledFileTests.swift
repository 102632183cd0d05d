// SceneIOTests — a bundled .sog read from its file entry by entry: the same splats as the same
// bytes read in memory, only the entries decoding needs read from disk (a counter in ZipReading),
// a damaged archive on disk still one line naming it; the real monkey .sog read both ways.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct SOGBundledFileTests {
    /// Writes `bytes` as `name` in a fresh folder; returns its path.
    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = TestData.temporaryDirectory("sog-file").appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func same(_ a: SplatCloud, _ b: SplatCloud) -> Bool {
        a.count == b.count && a.positions == b.positions && a.rotations == b.rotations && a.scales == b.scales
            && a.dc == b.dc && a.opacities == b.opacities && a.shRest == b.shRest && a.shDegree == b.shDegree
    }

    @Test(arguments: [false, true])
    func aFileGivesTheSplatsItsBytesGive(deflate: Bool) throws {
        let bytes = try Fixture.v2.zip(deflate: deflate)
        let path = try write(bytes, "hand.sog")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        let fromFile = try #require(splats(scene))
        let fromBytes = try #require(splats(try loadBytes(bytes, "hand.sog")))
        #expect(same(fromFile, fromBytes))
        #expect(info.format == .sog && info.variant == "bundled ZIP" && info.fileBytes == bytes.count)
    }

    @Test func onlyTheEntriesDecodingNeedsAreReadFromDisk() throws {
        // A megabyte of incompressible padding no one names: reading the SOG must not read it.
        var sog = Fixture.v2
        var random = SeededRandom(seed: 7)
        sog.files["padding.bin"] = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let path = try write(try sog.zip(), "padded.sog")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let zip = try SOGZip(path: path)
        let opened = zip.archive.fileBytesRead
        let result = try SOGReader.readBundled(zip, limits: SOGReader.Limits(), progress: nil)
        let c = try #require(splats(result.scene))
        #expect(c.count == 3)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(opened > 0 && opened < 128 << 10, "opening read \(opened) bytes")
        #expect(zip.archive.fileBytesRead < size - (1 << 20) + (128 << 10), "read \(zip.archive.fileBytesRead) of \(size) bytes")
        // Reading the padding reads it (the counter can see a whole entry).
        _ = try zip.read("padding.bin", cap: 2 << 20)
        #expect(zip.archive.fileBytesRead >= size - (128 << 10))
    }

    @Test func aDamagedFileIsOneLineNamingIt() throws {
        let full = try Fixture.v2.zip()
        for (bytes, name) in [(Array(full.prefix(full.count / 2)), "cut.sog"), (Array("PK\u{3}\u{4}garbage".utf8), "junk.sog")] {
            let path = try write(bytes, name)
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            #expect { try SceneFile.load(path: path) } throws: { e in
                let text = "\(e)"
                return text.hasPrefix(path) && text.contains("ZIP") && !text.contains("\n")
            }
        }
    }

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func theMonkeyFromItsFileMatchesItsBytes() throws {
        let path = TestData.path("splats/sog/monkey_0001.sog")
        let fromFile = try #require(splats(try SceneFile.load(path: path)))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let fromBytes = try #require(splats(try loadBytes(bytes, "monkey_0001.sog")))
        #expect(fromFile.count == 31_658 && same(fromFile, fromBytes))
    }
}
