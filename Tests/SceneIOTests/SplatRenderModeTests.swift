// SceneIOTests — `comment SplatRenderMode: default|mip|2dgs` (Brush, gsplat, splat-transform): `mip`
// sets the antialiased flag, `2dgs` (or a PLY without scale_2) loads surfels, anything else is a
// warning naming the value; `convert` writes the comment back.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct SplatRenderModeTests {
    let cloud = syntheticCloud(count: 40, degree: 1)

    /// Our PLY of `cloud` with `comment` lines added after the first comment.
    func ply(comments: [String], dropping property: String? = nil) -> [UInt8] {
        var c = cloud
        if property == "scale_2" { c.scales = c.scales.map { Vec3($0.x, $0.y, 1) } }   // the column cut below
        let bytes = GaussianPLYWriter.encode(c)
        var text = String(decoding: bytes.prefix(4000), as: UTF8.self)
        let end = text.range(of: "end_header\n")!.upperBound.utf16Offset(in: text)
        text = String(text.prefix(end))
        var header = text.replacingOccurrences(of: "comment written by SplatFrame SceneIO\n",
                                               with: "comment written by SplatFrame SceneIO\n" + comments.map { "comment \($0)\n" }.joined())
        var body = Array(bytes[end...])
        if let property {
            // Cut the float column out of every row (the test cloud's rows are all float32).
            let names = text.split(separator: "\n").filter { $0.hasPrefix("property float ") }.map { String($0.dropFirst(15)) }
            let k = names.firstIndex(of: property)!, stride = names.count * 4
            var cut: [UInt8] = []
            for i in 0..<cloud.count {
                let row = i * stride, column = row + k * 4
                cut += body[row..<column]
                cut += body[(column + 4)..<(row + stride)]
            }
            body = cut
            header = header.replacingOccurrences(of: "property float \(property)\n", with: "")
        }
        return Array(header.utf8) + body
    }

    func load(_ bytes: [UInt8], _ name: String = "m.ply") throws -> (SplatCloud, SceneInfo) {
        let (scene, info) = try SceneFile.loadWithInfo(data: Data(bytes), name: name)
        return (try #require(splats(scene)), info)
    }

    @Test func mipTurnsOnTheAntialiasedFlag() throws {
        for value in ["mip", "  MIP ", "Mip"] {
            let (c, info) = try load(ply(comments: ["Exported from Brush", "SplatRenderMode: \(value)"]))
            #expect(info.renderMode == .mip && info.antialiased == true && info.warnings.isEmpty, "\(value)")
            #expect(info.text.contains("antialiased"))
            #expect(c.scales == cloud.scales.map { Vec3(expf(logf($0.x)), expf(logf($0.y)), expf(logf($0.z))) })
        }
        let (_, plain) = try load(ply(comments: ["splatrendermode: default"]))
        #expect(plain.renderMode == .default && plain.antialiased == false && plain.warnings.isEmpty)
        let (_, none) = try load(ply(comments: []))
        #expect(none.renderMode == nil && none.antialiased == nil)
        // The last comment wins.
        #expect(try load(ply(comments: ["SplatRenderMode: mip", "SplatRenderMode: default"])).1.renderMode == .default)
    }

    @Test func twoDGSLoadsSurfels() throws {
        let (c, info) = try load(ply(comments: ["SplatRenderMode: 2dgs"]))
        #expect(info.renderMode == .twoD && info.antialiased == false && info.warnings.isEmpty)
        #expect(info.text.contains("2D Gaussian surfels (2dgs)"))
        for i in 0..<c.count {
            let s = cloud.scales[i], t = c.scales[i]
            #expect(abs(t.x - s.x) <= 1e-6 * s.x && abs(t.y - s.y) <= 1e-6 * s.y)
            #expect(t.z <= SplatRenderMode.surfelThickness * max(s.x, s.y) * 1.000001 && t.z > 0)
            #expect(t.z == min(expf(logf(s.z)), SplatRenderMode.surfelThickness * max(t.x, t.y)))
            #expect(c.rotations[i] == cloud.rotations[i].normalized || angle(c.rotations[i], cloud.rotations[i]) < 1e-3)
        }
    }

    /// 2DGS' own PLYs have two scales: read as surfels whatever the comment says.
    @Test func plyWithoutScale2IsTwoDGS() throws {
        for comments in [[], ["SplatRenderMode: mip"]] {
            let (c, info) = try load(ply(comments: comments, dropping: "scale_2"))
            #expect(c.count == cloud.count && info.renderMode == .twoD && info.antialiased == false)
            for i in 0..<c.count {
                let s = c.scales[i]
                #expect(abs(s.x - cloud.scales[i].x) <= 1e-6 * s.x)
                #expect(s.z == SplatRenderMode.surfelThickness * max(s.x, s.y))
            }
        }
    }

    @Test func unknownModeIsAWarningNamingIt() throws {
        let (c, info) = try load(ply(comments: ["SplatRenderMode: 3dgut"]), "u.ply")
        #expect(c.count == cloud.count && info.renderMode == nil && info.antialiased == nil)
        #expect(info.warnings == ["u.ply: line 4: unknown SplatRenderMode \"3dgut\" (expected default, mip or 2dgs); drawn as plain 3D Gaussians"])
        #expect(info.text.contains("warning:  u.ply: line 4: unknown SplatRenderMode"))
        // Other comments are not render modes; meshes ignore it.
        #expect(try load(ply(comments: ["RenderMode: x", "SplatRenderModeX"])).1.warnings.isEmpty)
    }

    @Test func convertKeepsTheComment() throws {
        let dir = TestData.temporaryDirectory("rendermode")
        func header(_ path: URL) throws -> String { String(decoding: try Data(contentsOf: path).prefix(3000), as: UTF8.self) }
        for (comment, mode) in [("SplatRenderMode: mip", SplatRenderMode.mip), ("SplatRenderMode: 2dgs", .twoD), ("SplatRenderMode: default", .default)] {
            let src = dir.appendingPathComponent("\(mode.rawValue).ply"), out = dir.appendingPathComponent("\(mode.rawValue)-out.ply")
            try Data(ply(comments: [comment])).write(to: src)
            let info = try SceneFile.convert(input: src.path, output: out.path)
            #expect(info.renderMode == mode)
            #expect(try header(out).contains("\ncomment SplatRenderMode: \(mode.rawValue)\n"))
            let (again, reread) = try SceneFile.loadWithInfo(path: out.path)
            #expect(reread.renderMode == mode && reread.warnings.isEmpty)
            if mode == .twoD {    // surfels stay surfels: the flattened scale is written and read back
                let before = try #require(splats(try SceneFile.load(path: src.path))), after = try #require(splats(again))
                for i in 0..<after.count { #expect(abs(after.scales[i].z - before.scales[i].z) <= 1e-6 * before.scales[i].z) }
            }
        }
        // No comment in, none out; an antialiased .spz gives `mip`; a `mip` PLY gives an antialiased .spz.
        let plain = dir.appendingPathComponent("plain.ply"), plainOut = dir.appendingPathComponent("plain-out.ply")
        try Data(ply(comments: [])).write(to: plain)
        try SceneFile.convert(input: plain.path, output: plainOut.path)
        #expect(try !header(plainOut).contains("SplatRenderMode"))
        let spz = dir.appendingPathComponent("aa.spz"), fromSPZ = dir.appendingPathComponent("aa.ply")
        try SceneFile.convert(input: plain.path, output: spz.path, spz: SPZWriteOptions(antialiased: true))
        try SceneFile.convert(input: spz.path, output: fromSPZ.path)
        #expect(try header(fromSPZ).contains("\ncomment SplatRenderMode: mip\n"))
        let mipSPZ = dir.appendingPathComponent("mip.spz")
        try SceneFile.convert(input: dir.appendingPathComponent("mip.ply").path, output: mipSPZ.path)
        #expect(try SceneFile.loadWithInfo(path: mipSPZ.path).info.antialiased == true)
    }
}
