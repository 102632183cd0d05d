// Procedural — SplatSceneBlocks: a generated splat scene made a block at a time, so a capture of
// any size (64M splats and more) can be written while only a block is held. The splats and their
// order are those of the whole-cloud generators (`SplatSceneGenerator.object` / `room` take one
// block of everything): the random stream is the same, only cut into blocks.
import RenderCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The splats of a generated scene, block by block (see the file header).
public struct SplatSceneBlocks {
    /// Splats in the whole scene.
    public let count: Int
    /// SH degree of every block (0…3).
    public let shDegree: Int
    private var rng: SeededRandom
    private let surfaces: [SplatSceneGenerator.Surface]
    private let cumulative: [Float]
    private let spacing: Float, sheen: Float
    private var made = 0

    /// Samples `count` splats over `surfaces` in proportion to area (see `SplatSceneGenerator`).
    /// `sheen` > 0 adds a band-1 term along the normal (brighter when seen head-on).
    init(count: Int, seed: UInt64, shDegree: Int, surfaces: [SplatSceneGenerator.Surface], sheen: Float) {
        self.count = max(0, count); self.shDegree = min(3, max(0, shDegree))
        rng = SeededRandom(seed: seed)
        self.surfaces = surfaces; self.sheen = sheen
        let total = surfaces.reduce(0) { $0 + $1.area }
        spacing = (total / Float(max(1, count))).squareRoot()
        var acc: Float = 0, cumulative: [Float] = []
        for s in surfaces { acc += s.area / total; cumulative.append(acc) }
        self.cumulative = cumulative
    }

    /// The next at most `maxSplats` splats; nil once all `count` were made.
    public mutating func next(maxSplats: Int) -> SplatCloud? {
        guard made < count else { return nil }
        let n = min(count - made, max(1, maxSplats))
        let nRest = SplatCloud.restCount(degree: shDegree)
        var rest = [Float](repeating: 0, count: nRest * 3)
        var cloud = SplatCloud(shDegree: shDegree)
        cloud.reserveCapacity(n)
        for _ in 0..<n {
            let pick = rng.uniform()
            let si = cumulative.firstIndex { pick < $0 } ?? surfaces.count - 1
            let (p0, normal, base) = surfaces[si].sample(rng.uniform(), rng.uniform())
            var colour = base + Vec3(rng.normal(), rng.normal(), rng.normal()) * 0.04
            colour = SplatSceneGenerator.simd_clamp01(colour)
            let sig = 0.7 * spacing * exp(0.35 * rng.normal())
            let aniso = exp(0.3 * rng.normal())
            let scale = Vec3(sig * aniso, sig / aniso, 0.1 * sig)
            let p = p0 + normal * (0.05 * spacing * rng.normal())
            let rotation = SplatSceneGenerator.frame(normal: normal, angle: 2 * Float.pi * rng.uniform())
            let opacity = 1 / (1 + exp(-(1.5 + 1.5 * rng.normal())))
            for k in 0..<rest.count { rest[k] = 0.03 * rng.normal() }
            if sheen > 0 && nRest >= 3 {
                // Band 1 basis is (−C1·y, C1·z, −C1·x): this makes the colour grow with
                // −dir·n, i.e. when the splat is seen facing the camera.
                for c in 0..<3 {
                    rest[0 * 3 + c] += -sheen * normal.y * (-1)
                    rest[1 * 3 + c] += sheen * normal.z * (-1)
                    rest[2 * 3 + c] += -sheen * normal.x * (-1)
                }
            }
            cloud.append(position: p, scale: scale, rotation: rotation, opacity: opacity,
                         dc: SplatCloud.dcFromColor(colour), rest: rest)
        }
        made += n
        return cloud
    }
}
