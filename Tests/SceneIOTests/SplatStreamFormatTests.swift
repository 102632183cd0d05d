// SceneIOTests — .spz and SOG read as bounded streams (`SPZSplatStream`, `SOGSplatStream`): every
// variant written by the project's writers (or by hand where none writes it: .spz v2, uncompressed
// NGSP, SOG v1) is read whole by `SceneFile.load` and through `SplatStreams.open` in blocks of 37
// splats (blocks straddle every attribute's boundaries), and the two must agree bit for bit; the
// stream must say it is bounded (no silent fall-back to the whole reader). Also: truncated files
// give the whole reader's one-line error, and the spool file has no name and goes with the stream.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct SplatStreamFormatTests {
    static let block = 37

    // MARK: - Helpers

    /// The stream's blocks, concatenated (each checked to hold 1…`block` splats of the stream's degree).
    static func readBlocks(_ stream: any SplatStream, block: Int = block, sourceLocation: SourceLocation = #_sourceLocation) throws -> SplatCloud {
        var all = SplatCloud(shDegree: stream.shDegree)
        while let b = try stream.next(maxSplats: block) {
            #expect(b.count >= 1 && b.count <= block && b.shDegree == stream.shDegree, sourceLocation: sourceLocation)
            all.positions += b.positions; all.scales += b.scales; all.rotations += b.rotations
            all.opacities += b.opacities; all.dc += b.dc; all.shRest += b.shRest
        }
        #expect(try stream.next(maxSplats: block) == nil, sourceLocation: sourceLocation)
        return all
    }

    /// Expects `a` and `b` to hold the same splats, bit for bit.
    static func expectIdentical(_ a: SplatCloud, _ b: SplatCloud, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        func bits(_ v: [Vec3]) -> [UInt32] { v.flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] } }
        func bits(_ q: [Quaternion]) -> [UInt32] { q.flatMap { [$0.w.bitPattern, $0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] } }
        func bits(_ f: [Float]) -> [UInt32] { f.map(\.bitPattern) }
        #expect(a.count == b.count && a.shDegree == b.shDegree, "\(what): \(a.count) splats of degree \(a.shDegree) vs \(b.count) of \(b.shDegree)",
                sourceLocation: sourceLocation)
        #expect(bits(a.positions) == bits(b.positions), "\(what): positions", sourceLocation: sourceLocation)
        #expect(bits(a.scales) == bits(b.scales), "\(what): scales", sourceLocation: sourceLocation)
        #expect(bits(a.rotations) == bits(b.rotations), "\(what): rotations", sourceLocation: sourceLocation)
        #expect(bits(a.opacities) == bits(b.opacities), "\(what): opacities", sourceLocation: sourceLocation)
        #expect(bits(a.dc) == bits(b.dc), "\(what): dc", sourceLocation: sourceLocation)
        #expect(bits(a.shRest) == bits(b.shRest), "\(what): SH rest", sourceLocation: sourceLocation)
    }

    /// Reads `path` whole and as a stream; expects a bounded stream of type `T` and the same splats.
    @discardableResult
    static func expectStreamMatchesWhole<T: SplatStream>(_ path: String, _ type: T.Type, _ what: String, block: Int = block,
                                                         sourceLocation: SourceLocation = #_sourceLocation) throws -> SplatCloud {
        let (scene, info) = try SceneFile.loadWithInfo(path: path)
        let whole = try #require(splats(scene), sourceLocation: sourceLocation)
        let stream = try SplatStreams.open(path)
        #expect(stream.isBounded, "\(what): read whole (\(Swift.type(of: stream)))", sourceLocation: sourceLocation)
        #expect(stream is T, "\(what): \(Swift.type(of: stream))", sourceLocation: sourceLocation)
        #expect(stream.count == whole.count && stream.shDegree == whole.shDegree, sourceLocation: sourceLocation)
        #expect(stream.warnings == info.warnings, "\(what): warnings", sourceLocation: sourceLocation)
        expectIdentical(try readBlocks(stream, block: block, sourceLocation: sourceLocation), whole, what, sourceLocation: sourceLocation)
        // The window's coarse picture: every 5th splat from a fresh stream; the size from the header alone.
        let again = try #require(try SplatStreams.openBounded(path), sourceLocation: sourceLocation)
        var every5th = SplatCloud(shDegree: whole.shDegree)
        for i in stride(from: 0, to: whole.count, by: 5) { every5th.append(contentsOf: whole.subset(ranges: [i..<(i + 1)])) }
        expectIdentical(try again.sample(step: 5), every5th, "\(what): sample", sourceLocation: sourceLocation)
        let size = try #require(SplatStreams.probe(path), sourceLocation: sourceLocation)
        #expect(size.splats == whole.count && size.shDegree >= whole.shDegree, "\(what): probe \(size)", sourceLocation: sourceLocation)
        return whole
    }

    /// The error `body` throws, if a SceneIOError.
    static func sceneError(_ body: () throws -> Void) -> SceneIOError? {
        do { try body(); return nil } catch let e as SceneIOError { return e } catch { return nil }
    }

    /// A fresh folder for one test.
    static func folder() -> URL { TestData.temporaryDirectory("splat-stream-formats") }

    static func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    /// The raw NGSP v3 stream (16-byte header and blocks) inside a gzip .spz.
    static func inflated(_ gz: [UInt8], count n: Int, degree: Int) throws -> [UInt8] {
        let size = 16 + n * (9 + 1 + 3 + 3 + 4 + SplatCloud.restCount(degree: degree) * 3)
        return try gz.withUnsafeBytes { try Decompress.gunzip($0, limit: size, file: "t") }
    }

    /// A raw v2 NGSP stream of pseudo-random attribute bytes (every byte pattern is a valid v2 splat).
    static func v2Payload(count n: Int, degree: Int, seed: UInt64) -> [UInt8] {
        var rng = seed
        var b = HostileInputTests().spzHeader(version: 2, count: UInt32(n), degree: UInt8(degree))
        for _ in 0..<(n * (9 + 1 + 3 + 3 + 3 + SplatCloud.restCount(degree: degree) * 3)) {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            b.append(UInt8(truncatingIfNeeded: rng >> 56))
        }
        return b
    }

    /// Descriptors of this process open on the unlinked file that was at `path`.
    static func descriptors(on path: String) -> Int {
        let name = (path as NSString).lastPathComponent
        let dir = (path as NSString).deletingLastPathComponent
        let targets = Set([path, ((dir as NSString).resolvingSymlinksInPath as NSString).appendingPathComponent(name)].map { $0 + " (deleted)" })
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")).map(targets.contains) ?? false
        }.count
    }

    // MARK: - .spz

    @Test(arguments: [3, 4], [0, 3])
    func spzWrittenByOurWriter(version: Int, degree: Int) throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cloud = syntheticCloud(count: 1000, degree: degree, seed: UInt64(10 * version + degree))
        let path = dir.appendingPathComponent("w.spz").path
        try SPZWriter.write(cloud, to: path, options: SPZWriteOptions(version: version))
        let whole = try Self.expectStreamMatchesWhole(path, SPZSplatStream.self, "v\(version) degree \(degree)")
        #expect(whole.count == 1000 && whole.shDegree == degree)
    }

    @Test(arguments: [0, 3])
    func spzV2GzipAndUncompressedNGSP(degree: Int) throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let v2 = dir.appendingPathComponent("v2.spz").path
        try Self.write(try Compress.gzip(Self.v2Payload(count: 777, degree: degree, seed: UInt64(5 + degree)), file: v2), v2)
        try Self.expectStreamMatchesWhole(v2, SPZSplatStream.self, "v2 gzip degree \(degree)")

        let v2raw = dir.appendingPathComponent("v2raw.spz").path
        try Self.write(Self.v2Payload(count: 300, degree: degree, seed: 99), v2raw)
        try Self.expectStreamMatchesWhole(v2raw, SPZSplatStream.self, "uncompressed v2 degree \(degree)")

        let gz = try SPZEncodedCloud.v3(count: 500, degree: degree)
        let v3raw = dir.appendingPathComponent("v3raw.spz").path
        try Self.write(try Self.inflated(gz, count: 500, degree: degree), v3raw)
        try Self.expectStreamMatchesWhole(v3raw, SPZSplatStream.self, "uncompressed v3 degree \(degree)")
    }

    @Test func spzExtensionRecordsAndTheirFrame() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ext = SPZExtensionTests()
        // An unknown record (a warning) and SPZ_ADOBE_coordinate_system LUF (Y-up: SH signs flip).
        let records = ext.record(0x1234_0001, [1, 2, 3, 4, 5]) + ext.frame(7)
        var raw = try Self.inflated(try SPZEncodedCloud.v3(count: 400, degree: 3), count: 400, degree: 3)
        raw[14] |= 2
        let variants: [(String, [UInt8])] = [
            ("gzip.spz", try Compress.gzip(raw + records, file: "gzip.spz")),
            ("raw.spz", raw + records),
            ("v4.spz", try ext.v4(Array(raw), records: records)),
        ]
        for (name, bytes) in variants {
            let path = dir.appendingPathComponent(name).path
            try Self.write(bytes, path)
            try Self.expectStreamMatchesWhole(path, SPZSplatStream.self, name)
            let stream = try SplatStreams.open(path)
            #expect(stream.warnings.count == 1 && stream.warnings[0].contains("0x12340001"), "\(name): \(stream.warnings)")
        }
        // A frame the reader refuses with SH present is refused by the stream too, in the same words.
        var refused = raw
        refused += ext.frame(12)
        let path = dir.appendingPathComponent("rfu.spz").path
        try Self.write(try Compress.gzip(refused, file: path), path)
        let whole = Self.sceneError { _ = try SceneFile.load(path: path) }
        let streamed = Self.sceneError { _ = try SplatStreams.open(path) }
        #expect(whole != nil && streamed == whole, "\(String(describing: streamed)) vs \(String(describing: whole))")
    }

    @Test func truncatedSpzIsTheWholeReadersOneLineError() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cloud = syntheticCloud(count: 800, degree: 3, seed: 3)
        let v3 = try SPZWriter.encode(cloud, options: SPZWriteOptions(version: 3))
        let v4 = try SPZWriter.encode(cloud, options: SPZWriteOptions(version: 4))
        let raw = try Self.inflated(v3, count: 800, degree: 3)
        let cases: [(String, [UInt8])] = [
            ("half-v3.spz", Array(v3.prefix(v3.count / 2))),
            ("header-v3.spz", Array(v3.prefix(12))),
            ("half-v4.spz", Array(v4.prefix(v4.count / 2))),
            ("lastbyte-v4.spz", Array(v4.dropLast())),
            ("half-raw.spz", Array(raw.prefix(raw.count / 2))),
        ]
        for (name, bytes) in cases {
            let path = dir.appendingPathComponent(name).path
            try Self.write(bytes, path)
            let streamed = Self.sceneError { _ = try Self.readBlocks(try SplatStreams.open(path)) }
            let whole = Self.sceneError { _ = try SceneFile.load(path: path) }
            let line = try #require(streamed, "\(name): no SceneIOError").description
            #expect(line.hasPrefix(path + ": ") && !line.contains("\n"), "\(name): \(line)")
            #expect(streamed == whole, "\(name): \(line) vs \(String(describing: whole))")
        }
    }

    // MARK: - SOG

    @Test(arguments: [0, 3], [false, true])
    func sogV2WrittenByOurWriter(degree: Int, bundled: Bool) throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cloud = syntheticCloud(count: 600, degree: degree, seed: UInt64(20 + degree))
        var options = SOGWriter.Options()
        options.shIterations = 2
        options.shPaletteSize = 128
        if bundled {
            let path = dir.appendingPathComponent("w.sog").path
            try SOGWriter.write(cloud, to: path, options: options)
            let whole = try Self.expectStreamMatchesWhole(path, SOGSplatStream.self, ".sog degree \(degree)")
            #expect(whole.count == 600 && whole.shDegree == degree)
        } else {
            let meta = dir.appendingPathComponent("w/meta.json").path
            try SOGWriter.write(cloud, to: meta, options: options)
            try Self.expectStreamMatchesWhole((meta as NSString).deletingLastPathComponent, SOGSplatStream.self, "folder degree \(degree)")
            try Self.expectStreamMatchesWhole(meta, SOGSplatStream.self, "meta.json degree \(degree)")
        }
    }

    @Test func sogHandMadeV1AndV2() throws {
        // Three splats in 2×2 images (a spare texel; a label beyond the palette), read 2 at a time.
        for (version, sog) in [("v1", Fixture.v1), ("v2", Fixture.v2)] {
            let dir = try sog.folder()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Self.expectStreamMatchesWhole(dir, SOGSplatStream.self, "\(version) folder", block: 2)
            let path = (dir as NSString).appendingPathComponent("hand.sog")
            try Self.write(try sog.zip(deflate: true), path)
            try Self.expectStreamMatchesWhole(path, SOGSplatStream.self, "\(version) bundled", block: 2)
        }
    }

    @Test func brokenSogIsTheWholeReadersError() throws {
        // A count beyond the images: the same one-line error, whole or streamed.
        let dir = try Fixture.v2.withCount("5").folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = Self.sceneError { _ = try SceneFile.load(path: dir) }
        let streamed = Self.sceneError { _ = try SplatStreams.open(dir) }
        #expect(whole != nil && streamed == whole, "\(String(describing: streamed)) vs \(String(describing: whole))")
    }

    // MARK: - Real files

    @Test func realFilesInTestdata() throws {
        for name in ["st-minimal-v2.spz", "st-minimal-v3.spz", "st-minimal-v4.spz", "ms-test-splat.3-points-from-train.spz"] {
            try Self.expectStreamMatchesWhole(TestData.path("splats/" + name), SPZSplatStream.self, name, block: 2)
        }
        for name in ["monkey_0001.sog", "playcanvas-logo", "playbot-lod/6_0", "playbot-lod/0_0", "playcanvas-logo/meta.json"] {
            // playbot-lod/0_0 holds 500,000 splats with SH: larger blocks, still straddling the images' rows.
            try Self.expectStreamMatchesWhole(TestData.path("splats/sog/" + name), SOGSplatStream.self, name, block: name.contains("0_0") ? 20_011 : Self.block)
        }
    }

    // MARK: - The spool

    @Test func spoolHasNoNameAndGoesWithTheStream() throws {
        let dir = Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spz = dir.appendingPathComponent("s.spz").path, sog = dir.appendingPathComponent("s.sog").path
        let cloud = syntheticCloud(count: 300, degree: 1, seed: 8)
        try SPZWriter.write(cloud, to: spz)
        try SOGWriter.write(cloud, to: sog, options: { var o = SOGWriter.Options(); o.shIterations = 1; o.shPaletteSize = 64; return o }())
        let temporary = FileManager.default.temporaryDirectory.path
        for path in [spz, sog] {
            var stream: (any SplatStream)? = try SplatStreams.open(path)
            // (No reference to the columns is kept: they must go with the stream.)
            let spool = try #require(((stream as? SPZSplatStream)?.columns ?? (stream as? SOGSplatStream)?.columns)?.spoolPath,
                                     "\(path): not spooled")
            #expect((spool as NSString).lastPathComponent.hasPrefix(SpooledColumns.prefix))
            #expect(URL(fileURLWithPath: (spool as NSString).deletingLastPathComponent).standardizedFileURL
                    == URL(fileURLWithPath: temporary).standardizedFileURL, "\(spool) not in \(temporary)")
            #expect(!FileManager.default.fileExists(atPath: spool), "\(spool) has a name while it is read")
            #expect(Self.descriptors(on: spool) == 1, "\(spool): the stream's descriptor")
            _ = try stream?.next(maxSplats: Self.block)
            stream = nil
            #expect(Self.descriptors(on: spool) == 0, "\(spool) still open after the stream went")
            #expect(!FileManager.default.fileExists(atPath: spool))
        }
    }
}

/// Small .spz files from our writer, for fixtures.
enum SPZEncodedCloud {
    /// A v3 (gzip) .spz of a synthetic cloud.
    static func v3(count: Int, degree: Int) throws -> [UInt8] {
        try SPZWriter.encode(syntheticCloud(count: count, degree: degree, seed: UInt64(count + degree)), options: SPZWriteOptions(version: 3))
    }
}
