// SceneIOTests — KHR_gaussian_splatting_compression_spz_2: the same known splats stored as an SPZ
// payload and as plain float accessors read back equal within SPZ's quantisation (every attribute,
// every SH coefficient in its order, a node transform); the payload's frame is LUF as the draft
// says; broken payloads, views and counts are one line; our writer's compressed GLB reads back.
import Foundation
import Testing
import JSONInput
import RenderCore
@testable import SceneIO
import TestSupport

@Suite struct GLTFSplatSPZTests {
    typealias Known = GLTFSplatTests.Known

    /// The sign each rest coefficient takes under (x, y, z) → (−x, −y, z) (the basis functions'
    /// parity in x and y, from Appendix A's polynomials, written out here rather than taken from the reader).
    static let xyFlip: [Float] = [
        -1, 1, -1,                      // y, z, x
        1, -1, 1, -1, 1,                // xy, yz, 3z²−1, xz, x²−y²
        -1, 1, -1, 1, -1, 1, -1,        // y(3x²−y²), xyz, y(5z²−1), z(5z²−3), x(5z²−1), z(x²−y²), x(x²−3y²)
    ]

    /// The SPZ bytes of `Known` (glTF coordinates) packed with LUF as the caller's frame: the
    /// stored RUB is (−x, y, −z) of LUF, and `SPZWriter` stores (x, −y, −z) of the RDF cloud it
    /// gets, so it gets (−x, −y, z) of the glTF values — a half turn about z, SH signed by `xyFlip`.
    static func payload(_ v: Known = Known()) throws -> [UInt8] {
        var cloud = SplatCloud(shDegree: 3)
        for i in 0..<2 {
            let p = v.positions[i], q = v.rotations[i]
            let rest = (1..<16).flatMap { k in (0..<3).map { c in xyFlip[k - 1] * v.sh(i, k, c) } }
            cloud.append(position: Vec3(-p.x, -p.y, p.z), scale: v.scales[i], rotation: Quaternion(w: q.w, x: -q.x, y: -q.y, z: q.z),
                         opacity: v.opacities[i], dc: Vec3(v.sh(i, 0, 0), v.sh(i, 0, 1), v.sh(i, 0, 2)), rest: rest)
        }
        return try SPZWriter.encode(cloud, options: SPZWriteOptions(version: 3, fractionalBits: 16, sh1Bits: 8, shRestBits: 8))
    }

    /// A GLB holding `payload` as the splats of one primitive under `node`.
    static func spzFile(_ payload: [UInt8], count: Int = 2, node: [String: Any] = [:], edit: (inout GLTFBuilder) -> Void = { _ in }) -> Data {
        var b = GLTFBuilder()
        var n = node
        n["mesh"] = b.spzSplatMesh(payload: payload, count: count, degree: 3)
        _ = b.node(n)
        b.json["scenes"] = [["nodes": [0]]]
        edit(&b)
        return b.glb()
    }

    static func read(_ data: Data, _ name: String = "spz.glb") throws -> (SplatCloud, SceneInfo) {
        let (scene, info) = try SceneFile.loadWithInfo(data: data, name: name)
        guard case .splats(let c) = scene else { throw CocoaError(.fileReadCorruptFile) }
        return (c, info)
    }

    /// Plain and compressed clouds equal within SPZ's steps (positions 2⁻¹⁶ m, log-scales 1/16,
    /// rotations 9 bits, bytes for opacity and colour, 8-bit SH here).
    /// (Under a turning node the SH bands mix: an error per coefficient of up to √(2l+1) steps' halves.)
    static func expectClose(_ a: SplatCloud, _ b: SplatCloud, positionTolerance: Float = 3e-5, shTolerance: Float = 0.5 / 128) {
        #expect(a.count == b.count && a.shDegree == b.shDegree)
        for i in 0..<min(a.count, b.count) {
            #expect(maxDiff(a.positions[i], b.positions[i]) < positionTolerance, "position \(i): \(a.positions[i]) vs \(b.positions[i])")
            for c in 0..<3 { #expect(abs(logf(a.scales[i][c] / b.scales[i][c])) < 1 / 30, "scale \(i)") }
            #expect(angle(a.rotations[i], b.rotations[i]) < 0.01, "rotation \(i): \(angle(a.rotations[i], b.rotations[i])) rad")
            #expect(abs(a.opacities[i] - b.opacities[i]) <= 0.5 / 255 + 1e-6)
            #expect(maxDiff(a.dc[i], b.dc[i]) <= 0.5 / 255 / 0.15 + 1e-5)
            for k in 0..<a.shRestCount * 3 {
                let x = a.shRest[i * a.shRestCount * 3 + k], y = b.shRest[i * b.shRestCount * 3 + k]
                #expect(abs(x - y) <= shTolerance + 1e-6, "splat \(i) SH component \(k): \(x) vs \(y)")
            }
        }
    }

    @Test func payloadReadsAsTheSameSplatsStoredAsAccessors() throws {
        let (spz, info) = try Self.read(Self.spzFile(Self.payload()))
        let plain = try GLTFSplatTests.read(GLTFSplatTests.knownFile())
        Self.expectClose(spz, plain)
        #expect(info.variant.contains("KHR_gaussian_splatting"))
        #expect(info.elements.first?.properties.first?.contains("SPZ v3 in bufferView 0") == true)
    }

    @Test(arguments: [
        #"{"translation": [1, -2, 0.5], "rotation": [0.2, -0.4, 0.1, 0.8899438], "scale": [1.5, 1.5, 1.5]}"#,
        #"{"matrix": [0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 3, 4, 5, 1]}"#,
    ])
    func nodesPlaceCompressedSplatsAsPlainOnes(nodeJSON: String) throws {
        let node = try #require(try JSONSerialization.jsonObject(with: Data(nodeJSON.utf8)) as? [String: Any])
        let (spz, _) = try Self.read(Self.spzFile(Self.payload(), node: node))
        let plain = try GLTFSplatTests.read(GLTFSplatTests.knownFile(node: node))
        Self.expectClose(spz, plain, positionTolerance: 1e-4, shTolerance: Float(7).squareRoot() * 0.5 / 128)
    }

    @Test func countsBufferViewsAndPayloadsAreCheckedInOneLine() throws {
        let payload = try Self.payload()
        func failure(_ data: Data) -> String {
            do { _ = try Self.read(data, "bad.glb"); return "no error" } catch { return "\(error)" }
        }
        // An accessor counting other than the payload's points.
        let count = failure(Self.spzFile(payload, edit: { $0.accessors[2]["count"] = 3 }))
        #expect(count.hasPrefix("bad.glb: \"accessor 2 (") && count.contains("2 elements like the SPZ payload's"), "\(count)")
        // The extension's bufferView out of range, and past its buffer.
        let missing = failure(Self.spzFile(payload, edit: { b in
            var meshes = b.json["meshes"] as! [[String: Any]]
            var prim = (meshes[0]["primitives"] as! [[String: Any]])[0]
            prim["extensions"] = ["KHR_gaussian_splatting": ["extensions": ["KHR_gaussian_splatting_compression_spz_2": ["bufferView": 9]]]]
            meshes[0]["primitives"] = [prim]
            b.json["meshes"] = meshes
        }))
        #expect(missing.hasPrefix("bad.glb: \"bufferView 9 ("), "\(missing)")
        let past = failure(Self.spzFile(payload, edit: { $0.bufferViews[0]["byteLength"] = 1 << 20 }))
        #expect(past.hasPrefix("bad.glb: \"bufferView 0 (") && past.contains("inside buffer 0"), "\(past)")
        // A payload that is not SPZ, and one cut short: SPZReader's one line, named by the bufferView.
        for bytes in [[UInt8](repeating: 7, count: 40), Array(payload.prefix(payload.count / 2))] {
            let e = failure(Self.spzFile(bytes))
            #expect(e.hasPrefix("bad.glb bufferView 0: ") && !e.contains("\n"), "\(e)")
        }
        // An unknown required extension is still refused by name.
        let other = failure(Self.spzFile(payload, edit: { $0.json["extensionsRequired"] = ["KHR_gaussian_splatting_compression_spz_2", "EXT_future"] }))
        #expect(other.contains("requires the glTF extension EXT_future"), "\(other)")
    }

    @Test func writerRoundTripWithinQuantisation() throws {
        let cloud = syntheticCloud(count: 200, degree: 3, seed: 5)
        for (bytes, name) in [(try GLTFSplatWriter.encodeGLB(cloud, file: "w.glb", spz: SPZWriteOptions()), "w.glb"),
                              (try GLTFSplatWriter.encodeGLTF(cloud, file: "w.gltf", spz: SPZWriteOptions()), "w.gltf")] {
            let (back, info) = try Self.read(Data(bytes), name)
            #expect(back.count == 200 && back.shDegree == 3)
            #expect(info.warnings.isEmpty, "\(info.warnings)")
            // SPZ's own round trip, the same cloud written as .spz and read back: the glTF one must agree with it.
            let direct = try #require(splats(try SceneFile.load(data: Data(try SPZWriter.encode(cloud)), name: "d.spz")))
            for i in 0..<200 {
                #expect(maxDiff(back.positions[i], cloud.positions[i]) <= 1.0 / 8192 + 1e-6)
                #expect(maxDiff(back.positions[i], direct.positions[i]) < 1e-6)
                #expect(maxDiff(back.scales[i], direct.scales[i]) < 1e-6 && back.opacities[i] == direct.opacities[i] && back.dc[i] == direct.dc[i])
                #expect(angle(back.rotations[i], direct.rotations[i]) < 1e-3)
            }
            // SH: within half a bucket (band 1: 8/128, bands 2–3: 16/128) of the values written.
            for i in 0..<200 {
                for k in 0..<15 {
                    for c in 0..<3 {
                        let j = (i * 15 + k) * 3 + c
                        #expect(abs(back.shRest[j] - cloud.shRest[j]) <= (k < 3 ? 4.5 : 8.5) / 128, "splat \(i) coefficient \(k + 1)")
                    }
                }
            }
        }
        // What other viewers read: the extension used and required, count-only accessors, the payload in view 0.
        let (json, bin) = try GLTFSplatWriter.document(cloud, file: "w.glb", embedded: false, spz: SPZWriteOptions())
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let spz = "KHR_gaussian_splatting_compression_spz_2"
        #expect(root["extensionsUsed"] as? [String] == ["KHR_gaussian_splatting", spz] && root["extensionsRequired"] as? [String] == [spz])
        let accessors = try #require(root["accessors"] as? [[String: Any]])
        #expect(accessors.allSatisfy { $0["bufferView"] == nil && $0["count"] as? Int == 200 })
        #expect(bin.prefix(2) == [0x1f, 0x8b])                                     // the gzip stream, as a .spz file holds it
        #expect(throws: SceneIOError.self) { try GLTFSplatWriter.encodeGLB(cloud, file: "v4.glb", spz: SPZWriteOptions(version: 4)) }
    }
}
