// SceneIOTests — every fuzz seed (Fuzz/corpus/<reader>/) and every crash the fuzzers found
// (none so far) goes through every reader: errors are fine, traps are not.
import Foundation
import Testing
@testable import SceneIO
import TestSupport

struct FuzzRegressionTests {
    /// Runs bytes through all readers, ignoring errors.
    func allReaders(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            let v = ByteView(bytes: raw, file: "fuzz")
            _ = try? PLYReader.read(v, progress: nil)
            if let h = try? PLYHeader.parse(v) { _ = try? PLYReader.readCompressed(h, v, progress: nil) }
            _ = try? SplatFileReader.read(v, progress: nil)
            _ = try? KSplatReader.read(v, progress: nil)
            _ = try? SPZReader.read(v, progress: nil)
            _ = try? OBJReader.read(v, directory: nil, progress: nil)
            _ = try? STLReader.read(v, progress: nil)
            _ = try? SOGReader.readBundled(v, progress: nil)
            _ = try? GLTFSplatReader.readIfSplats(v, directory: nil)
        }
    }

    @Test func seedCorporaThroughEveryReader() throws {
        let root = TestData.projectRoot.appendingPathComponent("Fuzz/corpus")
        let fm = FileManager.default
        var n = 0
        for dir in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] {
            for f in (try? fm.contentsOfDirectory(atPath: root.appendingPathComponent(dir).path)) ?? [] {
                let data = try Data(contentsOf: root.appendingPathComponent(dir).appendingPathComponent(f))
                allReaders(Array(data))
                // Truncations of every seed as well.
                for cut in stride(from: 0, to: data.count, by: max(1, data.count / 16)) { allReaders(Array(data.prefix(cut))) }
                n += 1
            }
        }
        #expect(n >= 12)
    }
}
