import RenderCore
import Testing
@testable import TriangleRaster

/// The culling pass drops a triangle whose box holds at most four pixel centres when none of
/// them is inside (a dense mesh's sub-pixel triangles). Checked against the rasterizer's own
/// data: the setup `emit` builds for the same triangle, its edge functions walked over every
/// pixel of its box, pixel by pixel.
@Suite("Sub-pixel triangles culled in setup")
struct TinyTriangleCullTests {
    /// Whether the setup built for (p0, p1, p2) has a pixel with all three edges ≥ 0, the tile
    /// rasterizer's inside test; nil when setup keeps nothing (degenerate, culled, empty box).
    static func setupCoversAPixel(_ builder: TriangleSetupBuilder, _ p: [SIMD2<Int64>]) -> Bool? {
        let vertex = ClipVertex(clip: Vec4(0, 0, 0, 1), normal: Vec3(0, 0, 1), uv: .zero, color: Vec4(1, 1, 1, 1))
        let v = UnsafeMutablePointer<ClipVertex>.allocate(capacity: 3)
        let storage = UnsafeMutablePointer<TriangleSetup>.allocate(capacity: 1)
        var chunk = SetupChunk()
        defer { v.deallocate(); storage.deallocate(); chunk.free() }
        v.initialize(repeating: vertex, count: 3)
        chunk.begin(storage: storage, capacity: 1)
        builder.emit(v, v + 1, v + 2, p[0], p[1], p[2], material: 0, into: &chunk)
        guard chunk.count == 1 else { return nil }
        let s = storage.pointee
        for y in s.minY...s.maxY {
            for x in s.minX...s.maxX {
                let e = s.edge &+ s.stepX &* Int64(x - s.minX) &+ s.stepY &* Int64(y - s.minY)
                if e[0] >= 0 && e[1] >= 0 && e[2] >= 0 { return true }
            }
        }
        return false
    }

    @Test("a triangle with at most four centres in its box is kept exactly when setup would draw a pixel of it")
    func centreTestMatchesTheRasterizer() {
        var rng = SeededRandom(seed: 11)
        var kept = 0, dropped = 0, tested = 0
        for cull in [false, true] {
            let builder = TriangleSetupBuilder(width: 64, height: 48, settings: RasterSettings(cullBackFaces: cull))
            for _ in 0..<20_000 {
                // Vertices within ±1.6 px of a point, a third of them on pixel centres or
                // boundaries (the fill rule's ties), in 1/256 px.
                let base = SIMD2<Int64>(Int64.random(in: 1_024...14_000, using: &rng),
                                        Int64.random(in: 1_024...10_000, using: &rng))
                let p = (0..<3).map { _ -> SIMD2<Int64> in
                    var q = base &+ SIMD2(Int64.random(in: -400...400, using: &rng), Int64.random(in: -400...400, using: &rng))
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: q = (q / 256) &* 256 &+ 128
                    case 1: q = (q / 256) &* 256
                    case 2: q.x = q.x / 256 * 256 + 128
                    default: break
                    }
                    return q
                }
                let fast = builder.coverage(p[0], p[1], p[2], testCentres: true)
                guard let loose = builder.coverage(p[0], p[1], p[2], testCentres: false) else {
                    #expect(fast == nil)
                    continue
                }
                let centres = (loose.maxX - loose.minX + 1) * (loose.maxY - loose.minY + 1)
                let reference = Self.setupCoversAPixel(builder, p)
                if centres <= TriangleSetupBuilder.centresTestedInSetup {
                    tested += 1
                    #expect((fast != nil) == (reference == true), "\(p), \(centres) centres")
                    if fast != nil { kept += 1 } else { dropped += 1 }
                } else {
                    #expect(fast != nil, "boxes of more than \(TriangleSetupBuilder.centresTestedInSetup) centres are kept")
                }
            }
        }
        // Both outcomes occur often, so the comparison can fail either way.
        #expect(tested > 10_000, "\(tested) tested")
        #expect(kept > tested / 5 && dropped > tested / 5, "\(tested) tested: \(kept) kept, \(dropped) dropped")
    }
}
