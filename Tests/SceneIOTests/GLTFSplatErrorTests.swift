// SceneIOTests — KHR_gaussian_splatting files broken in one place each: one line naming the file
// and the accessor (or the extension, node, attribute); truncations and byte changes never trap.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

@Suite struct GLTFSplatErrorTests {
    static let k = "KHR_gaussian_splatting"

    /// A valid three-splat file; `edit` breaks it before it is written.
    static func file(_ edit: (inout GLTFBuilder, [String: Int]) -> Void = { _, _ in }) -> Data {
        var b = GLTFBuilder()
        var at: [String: Int] = [:]
        at["POSITION"] = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        at["\(k):ROTATION"] = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], type: "VEC4")
        at["\(k):SCALE"] = b.floats([Float](repeating: 0.1, count: 9), type: "VEC3")
        at["\(k):OPACITY"] = b.floats([1, 0.5, 0.25], type: "SCALAR")
        at["\(k):SH_DEGREE_0_COEF_0"] = b.floats([Float](repeating: 0.2, count: 9), type: "VEC3")
        _ = b.splatMesh(attributes: at)
        _ = b.node(["mesh": 0])
        edit(&b, at)
        return b.glb()
    }

    /// The one-line error reading `data` gives.
    static func failure(_ data: Data, name: String = "broken.glb") -> String {
        do {
            _ = try SceneFile.load(data: data, name: name)
            return "no error"
        } catch { return "\(error)" }
    }

    @Test func validFileReads() throws {
        guard case .splats(let c) = try SceneFile.load(data: Self.file(), name: "ok.glb") else { Issue.record("not splats"); return }
        #expect(c.count == 3)
    }

    @Test(arguments: [
        ("bufferView out of range", 2, "accessor 2"),
        ("count past the view", 1, "accessor 1"),
        ("wrong type", 2, "accessor 2"),
        ("stride too small", 0, "accessor 0"),
        ("count unlike POSITION's", 3, "accessor 3"),
        ("uint32 rotation", 1, "accessor 1"),
        ("sparse", 4, "accessor 4"),
        ("accessor index out of range", 9, "accessor 9"),
        ("view past the buffer", 0, "accessor 0"),
    ])
    func malformedAccessorsNameFileAndAccessor(breakage: String, index: Int, expected: String) {
        let data = Self.file { b, at in
            switch breakage {
            case "bufferView out of range": b.accessors[index]["bufferView"] = 99
            case "count past the view": b.accessors[index]["count"] = 4
            case "wrong type": b.accessors[index]["type"] = "VEC2"
            case "stride too small": b.bufferViews[index]["byteStride"] = 8
            case "count unlike POSITION's":
                b.accessors[index]["count"] = 2
            case "uint32 rotation": b.accessors[index]["componentType"] = 5125
            case "sparse": b.accessors[index]["sparse"] = ["count": 1]
            case "accessor index out of range":
                var meshes = b.json["meshes"] as! [[String: Any]]
                var prim = (meshes[0]["primitives"] as! [[String: Any]])[0]
                var attributes = prim["attributes"] as! [String: Int]
                attributes["\(Self.k):SCALE"] = index
                prim["attributes"] = attributes
                meshes[0]["primitives"] = [prim]
                b.json["meshes"] = meshes
            default: b.bufferViews[index]["byteOffset"] = 1000
            }
        }
        let message = Self.failure(data)
        #expect(message.hasPrefix("broken.glb: ") && message.contains(expected) && !message.contains("\n"), "\(breakage): \(message)")
    }

    @Test func unknownRequiredExtensionIsNamed() {
        let message = Self.failure(Self.file { b, _ in
            b.json["extensionsRequired"] = [Self.k, "EXT_future_thing"]
        })
        #expect(message.hasPrefix("broken.glb: ") && message.contains("EXT_future_thing"), "\(message)")
        // Used but not required: read.
        #expect(Self.failure(Self.file { b, _ in b.json["extensionsUsed"] = [Self.k, "EXT_future_thing"] }) == "no error")
    }

    @Test func missingAndPartialAttributesAreNamed() {
        func without(_ name: String) -> Data {
            Self.file { b, _ in
                var meshes = b.json["meshes"] as! [[String: Any]]
                var prim = (meshes[0]["primitives"] as! [[String: Any]])[0]
                var attributes = prim["attributes"] as! [String: Int]
                attributes[name] = nil
                if name == "SH1" { attributes["\(Self.k):SH_DEGREE_1_COEF_0"] = 0; attributes["\(Self.k):SH_DEGREE_1_COEF_1"] = 0 }
                prim["attributes"] = attributes
                meshes[0]["primitives"] = [prim]
                b.json["meshes"] = meshes
            }
        }
        #expect(Self.failure(without("\(Self.k):SCALE")).contains("SCALE"))
        #expect(Self.failure(without("POSITION")).contains("POSITION"))
        #expect(Self.failure(without("SH1")).contains("SH_DEGREE_1_COEF_2"))
    }

    @Test func nodeCyclesAndTooManyInstancesAreRefused() {
        let cycle = Self.failure(Self.file { b, _ in
            b.json["nodes"] = [["mesh": 0, "children": [1]], ["children": [0]]]
            b.json["scenes"] = [["nodes": [0]]]
        })
        #expect(cycle.contains("reached twice"), "\(cycle)")
        let many = Self.failure(Self.file { b, _ in
            b.json["nodes"] = (0..<40).map { _ in ["mesh": 0] }
        })
        #expect(many.contains("instances"), "\(many)")
    }

    @Test func truncationsAndByteChangesNeverTrap() {
        let good = [UInt8](Self.file())
        for cut in 0..<good.count { _ = Self.failure(Data(good.prefix(cut))) }
        var rng = SeededRandom(seed: 5)
        for _ in 0..<3000 {
            var bytes = good
            for _ in 0..<1 + Int(rng.next() % 4) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            bytes.withUnsafeBytes { raw in
                _ = try? GLTFSplatReader.readIfSplats(ByteView(bytes: raw, file: "fuzz.glb"), directory: nil)
            }
        }
    }

    @Test func plainGLTFStillGoesToTheImporter() throws {
        // No splat primitive: not ours (the importer child reads it, or says it cannot).
        var b = GLTFBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        b.json["meshes"] = [["primitives": [["attributes": ["POSITION": p]]]]]
        let data = b.glb()
        let result = try data.withUnsafeBytes { raw in try GLTFSplatReader.readIfSplats(ByteView(bytes: raw, file: "mesh.glb"), directory: nil) }
        #expect(result == nil)
    }
}
