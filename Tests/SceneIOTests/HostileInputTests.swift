// SceneIOTests — malformed and hostile input: one-line errors, no traps, no huge allocations.
import Foundation
import Testing
import RenderCore
@testable import SceneIO

struct HostileInputTests {
    func expectError(_ bytes: [UInt8], _ name: String, contains: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        guard let e = loadError(bytes, name) else {
            Issue.record("no SceneIOError for \(name)", sourceLocation: sourceLocation); return
        }
        let d = e.description
        #expect(!d.contains("\n"), sourceLocation: sourceLocation)
        #expect(d.hasPrefix(name), sourceLocation: sourceLocation)
        for c in contains { #expect(d.contains(c), "\(d)", sourceLocation: sourceLocation) }
    }
    func text(_ s: String) -> [UInt8] { Array(s.utf8) }
    let xyz = "property float x\nproperty float y\nproperty float z\n"

    @Test func hugeCountsFailBeforeAllocating() {
        expectError(text("ply\nformat binary_little_endian 1.0\nelement vertex 1000000000000\n\(xyz)end_header\n") + [UInt8](repeating: 0, count: 900),
                    "big.ply", contains: "byte", "1000000000000")
        expectError(text("ply\nformat ascii 1.0\nelement vertex 1000000000000\n\(xyz)end_header\n1 2 3\n"), "big2.ply", contains: "vertex")
        expectError(text("ply\nformat binary_little_endian 1.0\nelement vertex 9223372036854775807\n\(xyz)end_header\n"), "ovf.ply")
        expectError(text("ply\nformat binary_little_endian 1.0\nelement vertex 99999999999999999999999\n\(xyz)end_header\n"), "ovf2.ply", contains: "line 3")
        // A zero-property element with a huge count is skipped in O(1).
        let ok = try? loadBytes(text("ply\nformat ascii 1.0\nelement nothing 1000000000000000\nelement vertex 1\n\(xyz)end_header\n1 2 3\n"), "z.ply")
        #expect(ok.flatMap(points)?.count == 1)
    }

    @Test func lyingListCounts() {
        let h = "ply\nformat binary_little_endian 1.0\nelement vertex 3\n\(xyz)element face 1\nproperty list uint int vertex_indices\nend_header\n"
        var b = text(h) + [UInt8](repeating: 0, count: 36)
        b += le(UInt32(4_000_000_000)) + le(Int32(0))
        expectError(b, "list.ply", contains: "byte", "4000000000")
        let a = "ply\nformat ascii 1.0\nelement vertex 3\n\(xyz)element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n200 0 1 2\n"
        expectError(text(a), "list.ply", contains: "line")
        expectError(text(a.replacingOccurrences(of: "200 0 1 2", with: "-3 0 1 2")), "neg.ply", contains: "list count")
    }

    @Test func indicesOutOfRange() {
        let a = "ply\nformat ascii 1.0\nelement vertex 3\n\(xyz)element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"
        expectError(text(a), "idx.ply", contains: "face row 0", "0..<3")
        let s = "ply\nformat ascii 1.0\nelement vertex 3\n\(xyz)element tristrips 1\nproperty list int int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2 -7\n"
        expectError(text(s), "strip.ply", contains: "tristrips row 0")
        expectError(text("v 0 0 0\nv 1 0 0\nf 1 2 3\n"), "a.obj", contains: "line 3", "vertex index")
        expectError(text("v 0 0 0\nf 0 1 1\n"), "b.obj", contains: "line 2")
        expectError(text("v 0 0 0\nf -2 1 1\n"), "c.obj", contains: "line 2")
        expectError(text("v 0 0 0\nf 1/5 1 1\n"), "d.obj", contains: "texture")
    }

    @Test func nonFinitePositions() {
        let a = "ply\nformat ascii 1.0\nelement vertex 2\n\(xyz)end_header\n0 0 0\nnan 1 2\n"
        expectError(text(a), "nan.ply", contains: "vertex row 1", "finite")
        expectError(text("v inf 0 0\n"), "inf.obj", contains: "line 1")
        var s = [UInt8](repeating: 0, count: 32)
        s.replaceSubrange(0..<4, with: le(Float.nan))
        expectError(s, "nan.splat", contains: "byte 0", "finite")
        // The 3DGS fast path checks too.
        var c = syntheticCloud(count: 3, degree: 0)
        c.positions[2].y = .infinity
        expectError(GaussianPLYWriter.encode(c), "inf.ply", contains: "vertex row 2")
    }

    @Test func truncatedFiles() {
        let full = GaussianPLYWriter.encode(syntheticCloud(count: 10, degree: 1))
        for cut in [5, 100, full.count - 1] {
            expectError(Array(full.prefix(cut)), "cut.ply")
        }
        expectError([UInt8](repeating: 1, count: 33), "odd.splat", contains: "byte 32", "32-byte")
        let a = "ply\nformat ascii 1.0\nelement vertex 2\n\(xyz)end_header\n0 0 0\n1 1\n"
        expectError(text(a), "short.ply", contains: "line", "end of file")
        expectError(text("solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2\n"), "t.stl", contains: "line")
        var stl = [UInt8](repeating: 0, count: 80) + le(UInt32(1000))
        stl += [UInt8](repeating: 0, count: 60)
        expectError(stl, "t.stl", contains: "byte 80")
    }

    @Test func malformedHeaders() {
        expectError(text("ply\nformat ascii 2.0 extra\nend_header\n"), "h.ply", contains: "line 2")
        expectError(text("ply\nformat ascii 1.0\nproperty float x\nend_header\n"), "h.ply", contains: "line 3", "element")
        expectError(text("ply\nformat ascii 1.0\nelement vertex 1\nproperty quux x\nend_header\n"), "h.ply", contains: "line 4")
        expectError(text("ply\nformat ascii 1.0\nelement vertex 1\nproperty list float int x\nend_header\n"), "h.ply", contains: "count type")
        expectError(text("ply\nformat ascii 1.0\nelement vertex 1\n"), "h.ply", contains: "end_header")
        expectError(text("ply\nelement vertex 1\nend_header\n"), "h.ply", contains: "format")
        expectError(text("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n"), "h.ply", contains: "x, y, z")
        expectError([0, 1, 2, 3, 4], "x.bin", contains: "unknown")
        let g = "ply\nformat binary_little_endian 1.0\nelement vertex 1\n\(xyz)property float f_dc_0\nproperty float opacity\nproperty float scale_0\nproperty float rot_0\nproperty float f_rest_0\nend_header\n"
        expectError(text(g), "g.ply", contains: "f_rest")
    }

    // MARK: .spz

    func spzHeader(version: UInt32, count: UInt32, degree: UInt8, fb: UInt8 = 12) -> [UInt8] {
        le(UInt32(0x5053_474e)) + le(version) + le(count) + [degree, fb, 0, 0]
    }
    func gzip(_ b: [UInt8]) -> [UInt8] {
        // Stored (uncompressed) deflate blocks in a gzip wrapper: enough for tests.
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        var i = 0
        repeat {
            let n = min(65535, b.count - i)
            out.append(i + n == b.count ? 1 : 0)
            out += le(UInt16(n)) + le(~UInt16(n))
            out += b[i..<(i + n)]
            i += n
        } while i < b.count
        var crc = UInt32(0xFFFF_FFFF)
        for byte in b { crc ^= UInt32(byte); for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 } }
        return out + le(~crc) + le(UInt32(truncatingIfNeeded: b.count))
    }

    @Test func spzHostile() {
        // 10^9 points claimed in a tiny gzip: rejected before inflating.
        expectError(gzip(spzHeader(version: 2, count: 1_000_000_000, degree: 3)), "bomb.spz", contains: "points")
        // A header promising 100 points with data for 1.
        expectError(gzip(spzHeader(version: 3, count: 100, degree: 0) + [UInt8](repeating: 0, count: 20)), "short.spz", contains: "inflated")
        expectError(gzip(spzHeader(version: 9, count: 1, degree: 0)), "ver.spz", contains: "version")
        expectError(gzip(spzHeader(version: 2, count: 1, degree: 7)), "deg.spz", contains: "SH degree")
        expectError([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "garbage.spz", contains: "gzip")
        // v4: bad stream count, TOC past the end, lying uncompressed size.
        var v4 = spzHeader(version: 4, count: 2, degree: 0)
        v4[15] = 5
        v4 += le(UInt32(32)) + [UInt8](repeating: 0, count: 12)
        expectError(v4, "toc.spz", contains: "table")
        var v4b = v4
        v4b[15] = 3
        expectError(v4b, "n.spz", contains: "5 streams")
        var v4c = v4
        v4c += (0..<5).flatMap { _ in le(UInt64(10)) + le(UInt64(1 << 40)) }
        expectError(v4c, "size.spz", contains: "stream 0")
        var v4d = v4
        v4d += le(UInt64(1 << 50)) + le(UInt64(18)) + (0..<4).flatMap { _ in le(UInt64(0)) + le(UInt64(0)) }
        expectError(v4d, "comp.spz", contains: "stream 0")
    }

    @Test func gzipBombIsCapped() {
        // 16-byte header + 40 MB of zeros compresses to ~40 kB; the header says 1 point, so the
        // reader inflates only what one point needs and ignores the rest.
        var payload = spzHeader(version: 2, count: 1, degree: 0)
        payload += [UInt8](repeating: 0, count: 19)
        let scene = try? loadBytes(gzip(payload), "one.spz")
        #expect(scene.flatMap(splats)?.count == 1)
    }

    @Test func compressedPLYHostile() {
        var h = "ply\nformat binary_little_endian 1.0\nelement chunk 2\n"
        for n in ["min_x", "min_y", "min_z", "max_x", "max_y", "max_z", "min_scale_x", "min_scale_y", "min_scale_z", "max_scale_x", "max_scale_y", "max_scale_z"] {
            h += "property float \(n)\n"
        }
        h += "element vertex 3\nproperty uint packed_position\nproperty uint packed_rotation\nproperty uint packed_scale\nproperty uint packed_color\nend_header\n"
        expectError(text(h), "c.ply", contains: "1 chunk rows")
        let ok = h.replacingOccurrences(of: "chunk 2", with: "chunk 1")
        expectError(text(ok) + [UInt8](repeating: 0, count: 48 + 10), "c.ply", contains: "byte")
        var nan = text(ok) + le(Float.nan) + [UInt8](repeating: 0, count: 44) + [UInt8](repeating: 0, count: 48)
        nan += []
        expectError(nan, "c.ply", contains: "finite")
    }

    @Test func errorDescriptionsAreOneLine() {
        let e = SceneIOError.badLine(file: "f", line: 3, expected: "x", found: "a\nb\u{1}c")
        #expect(e.description == "f: line 3: expected x, found \"a?b?c\"")
    }
}

/// Properties that must be scalars but are declared as lists (and duplicate names).
struct ListWhereScalarExpectedTests {
    @Test func listsInPlaceOfScalars() {
        let cases = [
            "ply\nformat ascii 1.0\nelement vertex 1\nproperty list uchar float x\nproperty float y\nproperty float z\nend_header\n1 5 2 3\n",
            "ply\nformat ascii 1.0\nelement chunk 1\nproperty list uchar float min_x\nelement vertex 1\nproperty uint packed_position\nend_header\n0\n0\n",
        ]
        for (i, c) in cases.enumerated() {
            guard let e = loadError(Array(c.utf8), "l\(i).ply") else { Issue.record("case \(i) loaded"); continue }
            #expect(e.description.contains("scalar"), "\(e)")
        }
        // A list `opacity` means "not 3DGS": the file is read as plain points.
        let g = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty float f_dc_0\nproperty list uchar float opacity\nproperty float scale_0\nproperty float rot_0\nend_header\n1 2 3 0 0 0 0\n"
        #expect((try? loadBytes(Array(g.utf8), "g.ply")).flatMap(points)?.count == 1)
        // Duplicate names: the first declaration wins, consistently.
        let dup = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty float x\nend_header\n1 2 3 4\n"
        #expect((try? loadBytes(Array(dup.utf8), "d.ply")).flatMap(points)?.positions == [Vec3(1, 2, 3)])
    }
}
