import Foundation
import Procedural
import RenderCore
import TestSupport
import Testing
import TriangleRaster

/// Shared edges: every pixel of a tiling is covered by exactly one triangle (top-left rule).
@Suite("Coverage and fill rule")
struct CoverageTests {
    /// An orthographic-like camera: a tiny-FOV perspective far away would blur; use an identity
    /// view with a projection mapping x, y ∈ [−1, 1] to the viewport and w = 1 (z ∈ [−1, 1]).
    static func flatCamera(width: Int, height: Int) -> Camera {
        // Perspective-free: clip = (x, y, z, 1) with w from a row (0, 0, 0, 1). Depth = 1/invW = 1.
        let p = Matrix4(Vec4(1, 0, 0, 0), Vec4(0, 1, 0, 0), Vec4(0, 0, -0.01, 0), Vec4(0, 0, 0, 1))
        return Camera(width: width, height: height, view: .identity, projection: p)
    }

    /// Draws each triangle alone and counts, per pixel, how many drew it.
    static func coverageCounts(_ mesh: TriangleMesh, camera: Camera, threads: Int = 2) -> [Int] {
        let r = TriangleRasterizer(threads: threads)
        let fb = Framebuffer(width: camera.width, height: camera.height)
        var counts = [Int](repeating: 0, count: camera.width * camera.height)
        for t in 0..<mesh.triangleCount {
            var single = mesh
            single.indices = Array(mesh.indices[(3 * t)..<(3 * t + 3)])
            fb.clear(color: 0)
            r.draw(single, camera: camera, into: fb)
            for i in 0..<counts.count where fb.depth[i].isFinite { counts[i] += 1 }
        }
        return counts
    }

    @Test("a fan of triangles around an off-grid centre covers its area exactly once")
    func fan() {
        let cam = Self.flatCamera(width: 64, height: 48)
        var pos = [Vec3(0.013, -0.021, 0)]
        let n = 17
        for i in 0...n {
            let a = 2 * Float.pi * Float(i) / Float(n)
            pos.append(Vec3(0.8 * cosf(a) + 0.0031, 0.8 * sinf(a) - 0.0017, 0))
        }
        var idx: [UInt32] = []
        for i in 1...UInt32(n) { idx += [0, i, i + 1] }
        let counts = Self.coverageCounts(TriangleMesh(positions: pos, indices: idx), camera: cam)
        #expect(counts.allSatisfy { $0 <= 1 }, "no pixel drawn twice")
        // Every pixel centre well inside the polygon is drawn once.
        var inside = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let nx = (Float(x) + 0.5) / 32 - 1, ny = 1 - (Float(y) + 0.5) / 24
                if (nx * nx + ny * ny).squareRoot() < 0.7 {
                    inside += 1
                    #expect(counts[y * 64 + x] == 1, "pixel \(x),\(y)")
                }
            }
        }
        #expect(inside > 500)
    }

    @Test("a grid of triangles with vertices on pixel centres and edges covers every pixel exactly once")
    func grid() {
        let cam = Self.flatCamera(width: 40, height: 30)
        // A 6×5 grid spanning the whole viewport, split along alternating diagonals, vertices on
        // exact pixel boundaries and centres (the hard cases for a fill rule).
        var pos: [Vec3] = []
        let xs: [Float] = [-1, -0.6, -0.175, 0.2, 0.55, 0.8, 1]   // includes pixel centres (e.g. 0.175·20 = 3.5)
        let ys: [Float] = [-1, -0.5, -0.0333, 0.4, 0.7, 1]
        for y in ys { for x in xs { pos.append(Vec3(x, y, 0)) } }
        var idx: [UInt32] = []
        let nx = xs.count
        for j in 0..<(ys.count - 1) {
            for i in 0..<(nx - 1) {
                let a = UInt32(j * nx + i), b = a + 1, c = a + UInt32(nx), d = c + 1
                if (i + j) % 2 == 0 { idx += [a, b, d, a, d, c] } else { idx += [a, b, c, b, d, c] }
            }
        }
        let counts = Self.coverageCounts(TriangleMesh(positions: pos, indices: idx), camera: cam)
        #expect(counts.allSatisfy { $0 == 1 }, "\(counts.filter { $0 != 1 }.count) pixels not covered exactly once")
    }
}
