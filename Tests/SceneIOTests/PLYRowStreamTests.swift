// SceneIOTests — the bounded streams of the PLYs the fast stream does not take (ASCII,
// big-endian, double-typed) and of `.splat`: their blocks, concatenated, hold exactly what the
// whole-file reader reads (bit for bit), across many small refills and rows split over lines;
// bad files give one-line errors naming the file and the line or byte.
import Foundation
import RenderCore
@testable import SceneIO
import Testing
import TestSupport

struct PLYRowStreamTests {
    /// Property names of a 3DGS vertex with SH degree 1, and an unused normal before them.
    static let names = ["x", "y", "z", "nx", "f_dc_0", "f_dc_1", "f_dc_2"] + (0..<9).map { "f_rest_\($0)" }
        + ["opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"]

    /// Raw property values, row-major, from a fixed seed (varied magnitudes and signs).
    static func values(rows: Int) -> [Double] {
        var rng: UInt64 = 12345
        return (0..<(rows * names.count)).map { k in
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(rng >> 11) / Double(1 << 53)
            return k % names.count < 3 ? (u - 0.5) * 20 : (u - 0.5) * 4
        }
    }

    /// An ASCII 3DGS PLY of `values`; `splitRows` puts each row's second half on its own line.
    static func ascii(_ values: [Double], splitRows: Bool = false) -> String {
        let rows = values.count / names.count
        var text = "ply\nformat ascii 1.0\nelement vertex \(rows)\n" + names.map { "property float \($0)\n" }.joined() + "end_header\n"
        for r in 0..<rows {
            let row = values[(r * names.count)..<((r + 1) * names.count)].map { String(Float($0)) }
            if splitRows {
                text += row.prefix(10).joined(separator: " ") + "\n  " + row.dropFirst(10).joined(separator: "\t") + "\n"
            } else {
                text += row.joined(separator: " ") + "\n"
            }
        }
        return text
    }

    /// A big-endian binary 3DGS PLY of `values` with x as a double (neither of which the fast
    /// stream takes).
    static func bigEndian(_ values: [Double]) -> [UInt8] {
        let rows = values.count / names.count
        var bytes = Array(("ply\nformat binary_big_endian 1.0\nelement vertex \(rows)\n"
            + names.map { "property \($0 == "x" ? "double" : "float") \($0)\n" }.joined() + "end_header\n").utf8)
        for r in 0..<rows {
            for (k, name) in names.enumerated() {
                let v = values[r * names.count + k]
                if name == "x" {
                    withUnsafeBytes(of: v.bitPattern.bigEndian) { bytes += $0 }
                } else {
                    withUnsafeBytes(of: Float(v).bitPattern.bigEndian) { bytes += $0 }
                }
            }
        }
        return bytes
    }

    /// Every block of `stream`, `block` splats at a time, as one cloud.
    static func drain(_ stream: any SplatStream, block: Int) throws -> SplatCloud {
        var all = SplatCloud(shDegree: stream.shDegree)
        while let b = try stream.next(maxSplats: block) {
            #expect(b.count <= block)
            for i in 0..<b.count {
                all.append(position: b.positions[i], scale: b.scales[i], rotation: b.rotations[i], opacity: b.opacities[i], dc: b.dc[i],
                           rest: Array(b.shRest[(i * b.shRestCount * 3)..<((i + 1) * b.shRestCount * 3)]))
            }
        }
        return all
    }

    /// Whether two clouds hold the same values, bit for bit.
    static func identical(_ a: SplatCloud, _ b: SplatCloud) -> Bool {
        func bits(_ v: [Vec3]) -> [UInt32] { v.flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] } }
        return a.count == b.count && a.shDegree == b.shDegree && bits(a.positions) == bits(b.positions) && bits(a.scales) == bits(b.scales)
            && a.rotations == b.rotations && a.opacities.map(\.bitPattern) == b.opacities.map(\.bitPattern)
            && bits(a.dc) == bits(b.dc) && a.shRest.map(\.bitPattern) == b.shRest.map(\.bitPattern)
    }

    static func whole(_ path: String) throws -> SplatCloud {
        guard case .splats(let c) = try SceneFile.load(path: path) else { throw SceneIOError.unsupported(file: path, reason: "no splats") }
        return c
    }

    @Test(arguments: [false, true])
    func asciiBlocksAreTheWholeReadersSplats(splitRows: Bool) throws {
        let dir = TestData.temporaryDirectory("ply-row-stream")
        let path = dir.appendingPathComponent("ascii.ply").path
        try Data(Self.ascii(Self.values(rows: 500), splitRows: splitRows).utf8).write(to: URL(fileURLWithPath: path))
        // 300-byte reads: a row is ~250 bytes, so rows cross refills all the time.
        let stream = try #require(try PLYRowStream.open(path, chunkBytes: 300))
        #expect(stream.isBounded && stream.count == 500 && stream.shDegree == 1)
        let streamed = try Self.drain(stream, block: 37)
        #expect(Self.identical(streamed, try Self.whole(path)))
        // The builders' entry point takes the same stream, not the whole-file reader.
        #expect(try SplatStreams.open(path) is PLYRowStream)
    }

    @Test func bigEndianAndDoubleBlocksAreTheWholeReadersSplats() throws {
        let dir = TestData.temporaryDirectory("ply-row-stream")
        let path = dir.appendingPathComponent("big.ply").path
        try Data(Self.bigEndian(Self.values(rows: 300))).write(to: URL(fileURLWithPath: path))
        #expect(try PLYSplatStream.open(path) == nil)
        let stream = try #require(try PLYRowStream.open(path))
        #expect(Self.identical(try Self.drain(stream, block: 64), try Self.whole(path)))
    }

    @Test func asciiCutShortNamesTheFileAndLine() throws {
        let dir = TestData.temporaryDirectory("ply-row-stream")
        let path = dir.appendingPathComponent("short.ply").path
        var text = Self.ascii(Self.values(rows: 20))
        text = text.replacingOccurrences(of: "element vertex 20", with: "element vertex 21")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let stream = try #require(try PLYRowStream.open(path, chunkBytes: 100))
        do {
            _ = try Self.drain(stream, block: 8)
            Issue.record("a short file read without an error")
        } catch let e as SceneIOError {
            let message = e.description
            #expect(message.contains("short.ply") && message.contains("line") && message.contains("end of file") && !message.contains("\n"), "\(message)")
        }
    }

    @Test func splatRecordBlocksAreTheWholeReadersSplats() throws {
        let dir = TestData.temporaryDirectory("splat-record-stream")
        let path = dir.appendingPathComponent("capture.splat").path
        var bytes: [UInt8] = []
        var rng: UInt64 = 99
        for _ in 0..<700 {
            for _ in 0..<6 {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                withUnsafeBytes(of: (Float(rng >> 40) / Float(1 << 24) - 0.5).bitPattern.littleEndian) { bytes += $0 }
            }
            for _ in 0..<8 { rng = rng &* 6364136223846793005 &+ 1442695040888963407; bytes.append(UInt8(truncatingIfNeeded: rng >> 33)) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let stream = try #require(try SplatRecordStream.open(path))
        #expect(stream.count == 700 && stream.isBounded)
        #expect(Self.identical(try Self.drain(stream, block: 99), try Self.whole(path)))
        #expect(Self.identical(try stream.sample(step: 9), Self.strided(try Self.whole(path), 9)))
        #expect(try SplatStreams.open(path) is SplatRecordStream)

        let cut = dir.appendingPathComponent("cut.splat").path
        try Data(bytes.prefix(33)).write(to: URL(fileURLWithPath: cut))
        #expect(throws: SceneIOError.self) { _ = try SplatRecordStream.open(cut) }
        do { _ = try SplatRecordStream.open(cut) } catch {
            #expect("\(error)".contains("cut.splat") && "\(error)".contains("32"), "\(error)")
        }
    }

    /// Every `step`-th splat of `c`.
    static func strided(_ c: SplatCloud, _ step: Int) -> SplatCloud {
        var out = SplatCloud(shDegree: c.shDegree)
        let per = c.shRestCount * 3
        for i in stride(from: 0, to: c.count, by: step) {
            out.append(position: c.positions[i], scale: c.scales[i], rotation: c.rotations[i], opacity: c.opacities[i], dc: c.dc[i],
                       rest: Array(c.shRest[(i * per)..<((i + 1) * per)]))
        }
        return out
    }

    @Test func asciiSampleIsAnEvenSpreadOfTheFilesRows() throws {
        let dir = TestData.temporaryDirectory("ply-row-stream")
        let path = dir.appendingPathComponent("ascii.ply").path
        try Data(Self.ascii(Self.values(rows: 1000)).utf8).write(to: URL(fileURLWithPath: path))
        let whole = try Self.whole(path)
        let stream = try #require(try PLYRowStream.open(path))
        let sample = try stream.sample(step: 10)
        // Rows found from byte positions: about one in ten, each one of the file's own rows,
        // from the first row to the last tenth, none twice.
        #expect(sample.count >= 95 && sample.count <= 100, "\(sample.count)")
        func key(_ p: Vec3) -> [UInt32] { [p.x.bitPattern, p.y.bitPattern, p.z.bitPattern] }
        let index = Dictionary(whole.positions.enumerated().map { (key($1), $0) }, uniquingKeysWith: { a, _ in a })
        let rows = try sample.positions.map { try #require(index[key($0)]) }
        #expect(rows.first == 0 && (rows.last ?? 0) >= 900 && Set(rows).count == rows.count && rows == rows.sorted())
        for (k, r) in rows.enumerated() {
            #expect(sample.scales[k] == whole.scales[r] && sample.opacities[k] == whole.opacities[r])
        }
        // Sampling leaves `next` where it was.
        #expect(Self.identical(try Self.drain(stream, block: 100), whole))
    }

    @Test func samplesOfFixedRowsAndSplitRowsAreEveryStepthSplat() throws {
        let dir = TestData.temporaryDirectory("ply-row-stream")
        let split = dir.appendingPathComponent("split.ply").path, big = dir.appendingPathComponent("big.ply").path
        try Data(Self.ascii(Self.values(rows: 200), splitRows: true).utf8).write(to: URL(fileURLWithPath: split))
        try Data(Self.bigEndian(Self.values(rows: 200))).write(to: URL(fileURLWithPath: big))
        for path in [split, big] {
            let stream = try #require(try PLYRowStream.open(path, chunkBytes: 500))
            #expect(Self.identical(try stream.sample(step: 7), Self.strided(try Self.whole(path), 7)), "\(path)")
        }
    }

    @Test func probeReadsTheSizeFromTheHeaderAlone() throws {
        let dir = TestData.temporaryDirectory("ply-row-stream")
        let ascii = dir.appendingPathComponent("a.ply").path, big = dir.appendingPathComponent("b.ply").path
        let records = dir.appendingPathComponent("c.splat").path, mesh = dir.appendingPathComponent("m.ply").path
        try Data(Self.ascii(Self.values(rows: 30)).utf8).write(to: URL(fileURLWithPath: ascii))
        try Data(Self.bigEndian(Self.values(rows: 40))).write(to: URL(fileURLWithPath: big))
        try Data(repeating: 128, count: 32 * 9).write(to: URL(fileURLWithPath: records))
        try Data("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n".utf8)
            .write(to: URL(fileURLWithPath: mesh))
        #expect(SplatStreams.probe(ascii) == SplatCaptureSize(splats: 30, shDegree: 1))
        #expect(SplatStreams.probe(big) == SplatCaptureSize(splats: 40, shDegree: 1))
        #expect(SplatStreams.probe(records) == SplatCaptureSize(splats: 9, shDegree: 0))
        #expect(SplatStreams.probe(mesh) == nil)
        #expect(SplatStreams.probe(dir.appendingPathComponent("missing.ply").path) == nil)
    }
}
