// What a leaf's levels lose against its finest (`LevelErrors`): its pictures against closed
// forms, and its tables against what a level plainly is (the finest again, or something else).
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
import Testing

struct LevelErrorsTests {
    /// A flat splat of σ (σx, σy) across the first direction, opacity `alpha`, grey.
    static func splat(at p: SIMD3<Double>, sx: Double, sy: Double, alpha: Double, grey: Float = 0.2) -> GaussianMoments {
        var c = SplatCloud(shDegree: 0)
        c.append(position: .zero, scale: Vec3(0.001, 0.001, 0.001), rotation: .identity, opacity: 1, dc: Vec3(grey, grey, grey))
        var g = GaussianMoments(c, 0)
        let (u, w) = ViewFittedColour.across[0], d = ViewFittedColour.directions[0]
        // Σ = sx² u uᵀ + sy² w wᵀ + (1e-4)² d dᵀ.
        func e(_ a: Int, _ b: Int) -> Double { sx * sx * u[a] * u[b] + sy * sy * w[a] * w[b] + 1e-8 * d[a] * d[b] }
        g.cov = (e(0, 0), e(0, 1), e(0, 2), e(1, 1), e(1, 2), e(2, 2))
        g.mean = p; g.opacity = alpha
        return g
    }

    @Test("one splat's picture covers what its Gaussian integrates to, low-pass included")
    func pictureCoverageIsTheGaussiansIntegral() {
        let pixel: Float = 0.01, sx = 0.04, sy = 0.025, alpha = 0.9
        let g = Self.splat(at: .zero, sx: sx, sy: sy, alpha: alpha)
        let seen = LevelErrors.Projection([g], direction: 0, centre: .zero)
        let image = LevelErrors.picture(seen, pixel: pixel, size: 64)
        let coverage = image.reduce(0) { $0 + Double($1.w) }
        // One splat over nothing: α·exp(−½ xᵀA⁻¹x) summed over pixels ≈ α·2π·√det A, A its
        // covariance in pixels² plus the 0.3 px² low-pass (less the 0.5 % beyond its 3σ box).
        let a = sx * sx / Double(pixel * pixel) + 0.3, c = sy * sy / Double(pixel * pixel) + 0.3
        let expected = alpha * 2 * Double.pi * (a * c).squareRoot() * 0.9946
        #expect(abs(coverage / expected - 1) < 0.01, "coverage \(coverage), expected \(expected)")
        // Colour is premultiplied: grey · coverage (SH DC of 0.2 → 0.5 + 0.2·Y₀).
        let colour = image.reduce(0) { $0 + Double($1.x) }
        #expect(abs(colour / coverage - Double(0.5 + 0.2 * 0.28209479)) < 1e-3)
    }

    @Test("pictures eight pixels at a time are pictures one pixel at a time")
    func pictureMatchesItsReference() {
        var random = SeededRandom(seed: 3)
        func uniform() -> Double { Double(random.next() % 10_000) / 10_000 }
        var splats: [GaussianMoments] = []
        for _ in 0..<300 {
            splats.append(Self.splat(at: SIMD3(uniform() * 0.4 - 0.2, uniform() * 0.4 - 0.2, uniform() * 0.4 - 0.2),
                                     sx: 0.002 + uniform() * 0.05, sy: 0.002 + uniform() * 0.03, alpha: uniform(), grey: Float(uniform()) - 0.5))
        }
        for j in [0, 12, 24, 36] {
            let seen = LevelErrors.Projection(splats, direction: j, centre: SIMD3(0.01, -0.02, 0))
            for (pixel, size) in [(Float(0.05), 12), (0.01, 48), (0.004, 96), (0.004, 13)] {
                let fast = LevelErrors.picture(seen, pixel: pixel, size: size), slow = LevelErrors.pictureByPixel(seen, pixel: pixel, size: size)
                var worst: Float = 0
                for (f, r) in zip(fast, slow) { let d = f - r; worst = max(worst, (d * d).max().squareRoot()) }
                #expect(worst < 1e-6, "direction \(j), \(size) px: \(worst)")
            }
        }
    }

    @Test("the fast exponential is within 0.1 % wherever pictures use it")
    func fastExponential() {
        for k in 0...555 {
            let x = -Float(k) / 100
            #expect(abs(LevelErrors.fastExp(x) / exp(x) - 1) < 1e-3, "x = \(x)")
            #expect(abs(LevelErrors.fastExp(SIMD8(repeating: x))[5] / exp(x) - 1) < 1e-3, "x = \(x), eight at a time")
        }
    }

    @Test("a level that is the finest again loses nothing; one moved or recoloured loses, the more the farther")
    func tablesMeasureWhatALevelLoses() throws {
        var finest: [GaussianMoments] = []
        for i in 0..<8 { for j in 0..<8 {
            finest.append(Self.splat(at: SIMD3(Double(i) * 0.02, Double(j) * 0.02, 0), sx: 0.012, sy: 0.012, alpha: 0.9, grey: Float((i + j) % 3) * 0.2 - 0.2))
        } }
        let box = Bounds(min: Vec3(-0.04, -0.04, -0.04), max: Vec3(0.18, 0.18, 0.04))
        let moved = finest.map { var g = $0; g.mean.x += 0.01; return g }
        let farther = finest.map { var g = $0; g.mean.x += 0.02; return g }
        let table = try #require(LevelErrors.table([finest, finest, moved, farther], box: box))
        for s in LevelErrorTable.sizes.indices {
            let row = Array(table.values[(s * 4)..<(s * 4 + 4)])
            #expect(row[0] == 0 && row[1] == 0, "size \(LevelErrorTable.sizes[s]): \(row)")
            #expect(row[2] > 0.001 && row[3] > row[2], "size \(LevelErrorTable.sizes[s]): \(row)")
        }
        #expect(LevelErrors.table([[], []], box: box) == nil)
    }
}
