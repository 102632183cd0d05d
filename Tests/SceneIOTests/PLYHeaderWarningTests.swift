// SceneIOTests — PLY headers as real writers write them: unknown lines (Blender 2.47's bare
// "Created by Blender3D …") skipped with a warning on SceneInfo; malformed declarations still errors.
import Foundation
import Testing
import RenderCore
@testable import SceneIO

struct PLYHeaderWarningTests {
    /// A triangle as Blender 2.47's exporter writes it: the credit line has no `comment` keyword.
    let blender = """
    ply
    format ascii 1.0
    Created by Blender3D 247 - www.blender.org, source file: 'cube.blend'
    element vertex 3
    property float x
    property float y
    property float z
    element face 1
    property list uchar uint vertex_indices
    end_header
    0 0 0
    1 0 0
    0 1 0
    3 0 1 2

    """

    func info(_ text: String, _ name: String) throws -> (LoadedScene, SceneInfo) {
        try SceneFile.loadWithInfo(data: Data(text.utf8), name: name)
    }

    @Test func blenderCreditLineIsSkippedWithAWarning() throws {
        let (scene, info) = try info(blender, "cube.ply")
        let m = try #require(mesh(scene))
        #expect(m.vertexCount == 3 && m.triangleCount == 1)
        #expect(m.positions[1] == Vec3(1, 0, 0))
        #expect(info.warnings.count == 1)
        let w = try #require(info.warnings.first)
        #expect(w.hasPrefix("cube.ply: line 3: skipped unknown header line"), "\(w)")
        #expect(w.contains("Created by Blender3D 247"), "\(w)")
        #expect(!w.contains("\n"))
        #expect(info.text.contains("  warning:  cube.ply: line 3:"))
        let obj = try JSONSerialization.jsonObject(with: Data(info.json.utf8)) as? [String: Any]
        #expect((obj?["warnings"] as? [String])?.count == 1)
    }

    @Test func cleanHeadersHaveNoWarnings() throws {
        // `obj_info` is a PLY keyword (Turk's ply.c), kept with the comments, not a warning.
        let text = blender.replacingOccurrences(of: "Created by", with: "obj_info Created by")
        let (_, info) = try info(text, "clean.ply")
        #expect(info.warnings.isEmpty)
        #expect(info.antialiased == nil)
        #expect(!info.text.contains("warning"))
    }

    @Test func malformedDeclarationsAreStillErrors() {
        for (bad, line) in [("element vertex", 4), ("element vertex three", 4), ("property float", 5), ("property list uchar x", 5)] {
            var lines = blender.components(separatedBy: "\n")
            if bad.hasPrefix("element") { lines[3] = bad } else { lines[4] = bad }
            let e = loadError(Array(lines.joined(separator: "\n").utf8), "bad.ply")
            #expect(e?.description.hasPrefix("bad.ply: line \(line): expected") == true, "\(bad): \(String(describing: e))")
        }
    }

    @Test func manyUnknownLinesAreCapped() throws {
        let junk = (0..<500).map { "junk line \($0)" }.joined(separator: "\n")
        let text = blender.replacingOccurrences(of: "Created by Blender3D 247 - www.blender.org, source file: 'cube.blend'", with: junk)
        let (scene, info) = try info(text, "junk.ply")
        #expect(mesh(scene)?.triangleCount == 1)
        #expect(info.warnings.count == PLYHeader.maxWarnings)
        #expect(info.warnings.first?.contains("line 3:") == true)
        #expect(info.warnings.last == "junk.ply: 481 more unknown header lines skipped")
    }

    @Test func binarySplatHeaderWithUnknownLine() throws {
        // The warning path must not disturb the body offset of a binary 3DGS file.
        let bytes = GaussianPLYWriter.encode(syntheticCloud(count: 20, degree: 1))
        let text = String(decoding: bytes.prefix(2000), as: UTF8.self)
        let cut = try #require(text.range(of: "element vertex")).lowerBound.utf16Offset(in: text)
        let patched = Array(bytes[..<cut]) + Array("Created by SomeTool 1.0\n".utf8) + Array(bytes[cut...])
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(patched), name: "s.ply")
        let a = try #require(splats(scene)), b = try #require(splats(try loadBytes(bytes, "s.ply")))
        #expect(a.positions == b.positions && a.shRest == b.shRest)
        #expect(info.warnings.count == 1 && info.warnings[0].contains("line 4:"))
    }
}
