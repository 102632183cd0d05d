// RenderCoreTests — the SH basis against the reference renderer's colour evaluation (the 3DGS
// reference's forward pass, term by term).
import RenderCore
import Testing
import TestSupport

struct SphericalHarmonicsTests {
    @Test("Σ basis·coefficients + 0.5 is the reference renderer's colour, bands 0…3")
    func basisMatchesReference() {
        var rng = SeededRandom(seed: 7)
        var cloud = SplatCloud(shDegree: 3)
        cloud.append(position: .zero, scale: Vec3(repeating: 0.1), rotation: Quaternion(w: 1, x: 0, y: 0, z: 0), opacity: 0.5,
                     dc: Vec3(rng.uniform() - 0.5, rng.uniform() - 0.5, rng.uniform() - 0.5),
                     rest: (0..<45).map { _ in rng.uniform() - 0.5 })
        for _ in 0..<50 {
            var d = SIMD3<Float>(rng.uniform() - 0.5, rng.uniform() - 0.5, rng.uniform() - 0.5)
            d /= (d * d).sum().squareRoot()
            let want = ReferenceSplatRenderer.shColor(cloud, 0, direction: d)
            let y = SphericalHarmonics.basis(SIMD3(Double(d.x), Double(d.y), Double(d.z)))
            for c in 0..<3 {
                var got = 0.5 + y[0] * Double(cloud.dc[0][c])
                for k in 1..<16 { got += y[k] * Double(cloud.shRest[(k - 1) * 3 + c]) }
                #expect(abs(got - Double(want[c])) < 1e-5, "direction \(d), channel \(c): \(got) against \(want[c])")
            }
        }
    }
}
