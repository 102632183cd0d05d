// SceneIOTests — a malformed glTF corpus through the importer child process: targeted breakage
// of a valid file's JSON (counts, offsets, indices, cycles, paths) and seeded random byte
// changes of a .glb. Every file must end as a mesh whose indices are in range or as a one-line
// error naming the file; whatever Assimp does in the child, this process goes on.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

@Suite struct MalformedGLTFTests {
    init() { useBuiltImporter() }

    /// Outcome of one file: nil when it loaded, else the error's text.
    func load(_ path: String) -> String? {
        do {
            let (scene, _) = try SceneFile.loadWithInfo(path: path)
            if case .mesh(let m) = scene {
                #expect(m.indices.allSatisfy { Int($0) < m.positions.count }, "\(path): an index out of range")
            }
            return nil
        } catch let e as SceneIOError {
            let text = e.description
            #expect(!text.contains("\n") && text.hasPrefix(path + ": "), "\(text)")
            return text
        } catch {
            Issue.record("\(path): not a SceneIOError: \(error)")
            return "\(error)"
        }
    }

    /// Breaks the unpacked quad's JSON in one way each; each result is checked by `load`.
    @Test func targetedBreakage() throws {
        let dir = TestData.temporaryDirectory("gltf-malformed").path
        let good = try ImportedModelTests.texturedQuad().writeUnpacked(to: dir, name: "quad")
        let json = try String(contentsOfFile: good, encoding: .utf8)
        #expect(load(good) == nil)
        let edits: [(String, String, String)] = [
            ("huge-count", #""count":4,"#, #""count":1000000000,"#),
            ("huge-offset", #""byteOffset":0,"#, #""byteOffset":4294967295,"#),
            ("missing-view", #""bufferView":0,"#, #""bufferView":99,"#),
            ("float-indices", #""indices":3"#, #""indices":0"#),
            ("self-child", #""scale":[2.0,2.0,2.0]"#, #""scale":[2.0,2.0,2.0],"children":[0]"#),
            ("missing-mesh", #""mesh":0"#, #""mesh":99"#),
            ("short-buffer", #""buffers":[{"byteLength":"#, #""buffers":[{"byteLength":1,"x":"#),
            ("escaping-uri", #""uri":"quad.bin""#, #""uri":"../../../../../../etc/passwd""#),
            ("bad-data-uri", #""uri":"quad.bin""#, #""uri":"data:application/octet-stream;base64,!!!!""#),
            ("bad-component", #""componentType":5126"#, #""componentType":5130"#),
            ("wrong-type", #""type":"VEC3""#, #""type":"MAT4""#),
            ("missing-picture", #""uri":"quad.png""#, #""uri":"missing.png""#),
            ("picture-is-bin", #""uri":"quad.png""#, #""uri":"quad.bin""#),
            ("infinite-translation", #""translation":[1.0,2.0,3.0]"#, #""translation":[1e39,2.0,3.0]"#),
            ("no-asset", #""asset":"#, #""assett":"#),
            ("version-3", #""version":"2.0""#, #""version":"3.0""#),
        ]
        var refused = 0
        for (name, from, to) in edits {
            #expect(json.contains(from), "\(name): the fixture has no \(from)")
            let path = (dir as NSString).appendingPathComponent("\(name).gltf")
            try Data(json.replacingOccurrences(of: from, with: to).utf8).write(to: URL(fileURLWithPath: path))
            if load(path) != nil { refused += 1 }
        }
        let half = (dir as NSString).appendingPathComponent("half.gltf")
        try Data(json.utf8.prefix(json.utf8.count / 2)).write(to: URL(fileURLWithPath: half))
        #expect(load(half) != nil)
        #expect(refused >= 8, "only \(refused) of \(edits.count) broken files were refused")
    }

    /// Seeded random changes of a .glb: single bytes, runs of 0xFF, truncations.
    @Test func randomByteChanges() throws {
        let dir = TestData.temporaryDirectory("glb-mutants").path
        let good = try ImportedModelTests.texturedQuad().writeBinary(to: dir, name: "quad")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: good)))
        var rng = SplitMix64(seed: 2026)
        for i in 0..<40 {
            var b = bytes
            switch i % 4 {
            case 0: for _ in 0..<4 { b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            case 1: let at = Int(rng.next() % UInt64(b.count - 8)); for k in 0..<8 { b[at + k] = 0xFF }
            case 2: b = Array(b.prefix(Int(rng.next() % UInt64(b.count))))
            default:   // a digit in the JSON chunk changed to 9
                let digits = b.indices.filter { $0 < 1000 && b[$0] >= 0x30 && b[$0] <= 0x39 }
                if let d = digits.isEmpty ? nil : digits[Int(rng.next() % UInt64(digits.count))] { b[d] = 0x39 }
            }
            let path = (dir as NSString).appendingPathComponent("mutant\(i).glb")
            try Data(b).write(to: URL(fileURLWithPath: path))
            _ = load(path)
        }
    }
}
