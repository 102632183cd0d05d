// SplatSceneGenerator — deterministic Gaussian-splat scenes made from code.
//
// Two scenes, both built the same way as the bench's gen_splats.py: points sampled on
// analytic surfaces in proportion to area, each a flat Gaussian (third axis along the
// normal, 10× thinner) with in-plane sigma ≈ 0.7 × the mean spacing √(area/N), so every
// surface point is covered by ~14 splats whatever N is; opacities sigmoid(N(1.5, 1.5)).
//  • `object`: a torus and a ball on a square floor inside the box [−½, ½]³ (y up), SH
//    degree 3 with a view-dependent sheen (band 1 aligned with the normal, small bands 2–3).
//  • `room`: gen_splats.py's y-up room (floor, back and side wall, sphere, cylinder) for
//    benchmarks at 150k–1M splats, with its camera (`roomCamera`).
import RenderCore

/// Deterministic splat scenes for tests and benchmarks.
public enum SplatSceneGenerator {
    /// A surface sampler: (u, v) in [0, 1)² → position, unit normal, base colour.
    typealias Surface = (area: Float, sample: (Float, Float) -> (Vec3, Vec3, Vec3))

    /// A torus and a ball standing on a floor, fitting the box [−½, ½]³ (y up), SH degree
    /// `shDegree` (default 3) with view-dependent colour. Deterministic for `seed`.
    public static func object(count: Int, seed: UInt64 = 1, shDegree: Int = 3) -> SplatCloud {
        var blocks = objectBlocks(count: count, seed: seed, shDegree: shDegree)
        return blocks.next(maxSplats: count) ?? SplatCloud(shDegree: min(3, max(0, shDegree)))
    }

    /// `object(count:seed:shDegree:)` made a block at a time (the same splats, in the same order).
    public static func objectBlocks(count: Int, seed: UInt64 = 1, shDegree: Int = 3) -> SplatSceneBlocks {
        SplatSceneBlocks(count: count, seed: seed, shDegree: shDegree, surfaces: objectSurfaces(), sheen: 0.35)
    }

    static func objectSurfaces() -> [Surface] {
        let floorY: Float = -0.45
        let floor: Surface = (1.0, { u, v in
            let x = -0.5 + u, z = -0.5 + v
            let chk = (Int((x + 1) * 8) + Int((z + 1) * 8)) % 2 == 0
            return (Vec3(x, floorY, z), Vec3(0, 1, 0), chk ? Vec3(0.8, 0.78, 0.7) : Vec3(0.2, 0.25, 0.35))
        })
        // Torus: major radius 0.25, minor 0.09, standing upright (axis along z), resting on the floor.
        let R: Float = 0.25, r: Float = 0.09
        let centre = Vec3(-0.08, floorY + R + r, -0.05)
        let torus: Surface = (4 * Float.pi * Float.pi * R * r, { u, v in
            let th = 2 * Float.pi * u, ph = 2 * Float.pi * v
            let ring = Vec3(cos(th), sin(th), 0)
            let n = ring * cos(ph) + Vec3(0, 0, 1) * sin(ph)
            let stripe = Int(th * 12 / (2 * Float.pi)) % 2 == 0
            return (centre + ring * R + n * r, n, stripe ? Vec3(0.9, 0.3, 0.15) : Vec3(0.95, 0.85, 0.3))
        })
        let ballR: Float = 0.12, ballC = Vec3(0.3, floorY + 0.12, 0.22)
        let ball: Surface = (4 * Float.pi * ballR * ballR, { u, v in
            let zc = 1 - 2 * u, ph = 2 * Float.pi * v
            let s = (1 - zc * zc).squareRoot()
            let n = Vec3(s * cos(ph), zc, s * sin(ph))
            let g = 0.5 + 0.5 * n.y
            return (ballC + n * ballR, n, Vec3(0.2, 0.4, 0.9) * g + Vec3(0.1, 0.8, 0.5) * (1 - g))
        })
        return [floor, torus, ball]
    }

    /// gen_splats.py's synthetic room (y up; floor y = −1, back wall z = −7, side wall
    /// x = −4, a sphere and a cylinder), SH degree `shDegree` with small random higher bands.
    public static func room(count: Int, seed: UInt64 = 1, shDegree: Int = 3) -> SplatCloud {
        var blocks = roomBlocks(count: count, seed: seed, shDegree: shDegree)
        return blocks.next(maxSplats: count) ?? SplatCloud(shDegree: min(3, max(0, shDegree)))
    }

    /// `room(count:seed:shDegree:)` made a block at a time (the same splats, in the same order):
    /// what writes a capture larger than memory (`splatframe generate 64M`).
    public static func roomBlocks(count: Int, seed: UInt64 = 1, shDegree: Int = 3) -> SplatSceneBlocks {
        SplatSceneBlocks(count: count, seed: seed, shDegree: shDegree, surfaces: roomSurfaces(), sheen: 0)
    }

    static func roomSurfaces() -> [Surface] {
        let floor: Surface = (88, { u, v in
            let x = -4 + 11 * u, z = -7 + 8 * v
            let chk = Int((x * 2).rounded(.down) + (z * 2).rounded(.down)) & 1 == 1
            return (Vec3(x, -1, z), Vec3(0, 1, 0), chk ? Vec3(0.85, 0.82, 0.75) : Vec3(0.25, 0.3, 0.4))
        })
        let back: Surface = (66, { u, v in
            let x = -4 + 11 * u, y = -1 + 6 * v
            let s = 0.5 + 0.5 * sin(x * 3)
            return (Vec3(x, y, -7), Vec3(0, 0, 1), Vec3(0.9, 0.5, 0.2) * s + Vec3(0.2, 0.6, 0.8) * (1 - s))
        })
        let side: Surface = (48, { u, v in
            let z = -7 + 8 * u, y = -1 + 6 * v
            let g = (y + 1) / 6
            return (Vec3(-4, y, z), Vec3(1, 0, 0), Vec3(0.95, 0.95, 0.9) * g + Vec3(0.5, 0.15, 0.2) * (1 - g))
        })
        let sphere: Surface = (4 * Float.pi * 1.44, { u, v in
            let zc = 1 - 2 * u, ph = 2 * Float.pi * v
            let r = max(0, 1 - zc * zc).squareRoot()
            let n = Vec3(r * cos(ph), r * sin(ph), zc)
            let band = Int(((n.y + 1) * 4).rounded(.down)) & 1 == 1
            return (Vec3(0.6, 0.2, -2.5) + n * 1.2, n, band ? Vec3(0.9, 0.85, 0.2) : Vec3(0.15, 0.5, 0.25))
        })
        let cylinder: Surface = (2 * Float.pi * 0.5 * 2.5, { u, v in
            let ph = 2 * Float.pi * u
            let n = Vec3(cos(ph), 0, sin(ph))
            var p = Vec3(-2, 0, -1.5) + n * 0.5
            p.y = -1 + 2.5 * v
            let st = Int((ph * 4 / Float.pi).rounded(.down)) & 1 == 1
            return (p, n, st ? Vec3(0.8, 0.2, 0.2) : Vec3(0.9, 0.9, 0.9))
        })
        return [floor, back, side, sphere, cylinder]
    }

    /// The bench camera for `room` (bench/cams/synth.json at any size): eye (0.8, 0.9, 2.6)
    /// looking at (−0.2, 0.3, −3), y up, 50° vertical field of view, near 0.1, far 30.
    public static func roomCamera(width: Int = 1280, height: Int = 720) -> Camera {
        let view = Matrix4.lookAt(eye: Vec3(0.8, 0.9, 2.6), target: Vec3(-0.2, 0.3, -3.0), up: Vec3(0, 1, 0))
        let proj = Matrix4.perspective(fovY: 50 * Float.pi / 180, aspect: Float(width) / Float(height),
                                       near: 0.1, far: 30)
        return Camera(width: width, height: height, view: view, projection: proj)
    }

    /// A camera looking at the `object` scene from the front and slightly above, so that it
    /// fills most of a `width`×`height` view (45° vertical field of view).
    public static func objectCamera(width: Int = 1280, height: Int = 720) -> Camera {
        let view = Matrix4.lookAt(eye: Vec3(0.15, 0.35, 1.25), target: Vec3(0, -0.12, 0), up: Vec3(0, 1, 0))
        let proj = Matrix4.perspective(fovY: 45 * Float.pi / 180, aspect: Float(width) / Float(height),
                                       near: 0.05, far: 20)
        return Camera(width: width, height: height, view: view, projection: proj)
    }

    /// A rotation whose third axis is `normal`, turned by `angle` about it.
    static func frame(normal n: Vec3, angle: Float) -> Quaternion {
        let a = abs(n.x) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 1, 0)
        let t = n.cross(a).normalized, b = n.cross(t)
        let u = t * cos(angle) + b * sin(angle)
        let v = n.cross(u)
        return quaternion(columns: u, v, n)
    }

    /// The unit quaternion (w, x, y, z) of a rotation matrix given by its columns.
    static func quaternion(columns c0: Vec3, _ c1: Vec3, _ c2: Vec3) -> Quaternion {
        // m[row][col]: m00 = c0.x, m10 = c0.y, m21 = c1.z, …
        let tr = c0.x + c1.y + c2.z
        var w = max(0, 1 + tr).squareRoot() / 2
        var x = max(0, 1 + c0.x - c1.y - c2.z).squareRoot() / 2
        var y = max(0, 1 - c0.x + c1.y - c2.z).squareRoot() / 2
        var z = max(0, 1 - c0.x - c1.y + c2.z).squareRoot() / 2
        x = copysign(x, c1.z - c2.y)   // m21 − m12
        y = copysign(y, c2.x - c0.z)   // m02 − m20
        z = copysign(z, c0.y - c1.x)   // m10 − m01
        w = max(w, 0)
        return Quaternion(w: w, x: x, y: y, z: z).normalized
    }

    @inline(__always) static func simd_clamp01(_ v: Vec3) -> Vec3 {
        Vec3(min(max(v.x, 0), 1), min(max(v.y, 0), 1), min(max(v.z, 0), 1))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
