// Depth precision for big scenes: the sort key keeps 1 cm apart at 500 m in order, and a scene
// mixing near and far splats matches the reference.
import Foundation
import RenderCore
import SplatRender
import Testing
import TestSupport

@Suite("depth precision")
struct DepthPrecisionTests {
    /// Two opaque splats 1 cm apart at 500 m: whichever is nearer must cover the other,
    /// whatever their order in the file.
    @Test(arguments: [false, true])
    func oneCentimetreApartAtFiveHundredMetres(swapped: Bool) {
        let cam = SplatTestHelpers.lookAtCamera(eye: Vec3(0, 0, 0), target: Vec3(0, 0, -1), width: 64, height: 48, fovY: 0.5, near: 0.1)
        var cloud = SplatCloud(shDegree: 0)
        let near = (Vec3(0, 0, -500), Vec3(1, 0, 0)), far = (Vec3(0, 0, -500.01), Vec3(0, 0, 1))
        for (p, c) in swapped ? [far, near] : [near, far] {
            cloud.append(position: p, scale: Vec3(repeating: 1), rotation: .identity, opacity: 0.99, dc: SplatCloud.dcFromColor(c))
        }
        let fb = Framebuffer(width: 64, height: 48)
        SplatRenderer(threads: 2).render(SplatRenderer.prepare(cloud), camera: cam, into: fb, depthTest: false)
        let centre = PackedColor.channels(fb.color[24 * 64 + 32])
        #expect(centre[0] > 200 && centre[2] < 40, "the nearer (red) splat must be in front: \(centre)")
        SplatTestHelpers.expectMatch(cloud, camera: cam, name: "1cm-at-500m-\(swapped)")
    }

    /// Detail at 1 m and at 1 km in one frame.
    @Test func nearAndFarInOneScene() {
        let cam = SplatTestHelpers.lookAtCamera(eye: Vec3(0, 0, 0), target: Vec3(0, 0, -1), width: 96, height: 72, fovY: 40, near: 0.1)
        var cloud = SplatCloud(shDegree: 0)
        var rng = SplitMix(seed: 7)
        for i in 0..<400 {
            let far = i % 2 == 0
            let z: Float = far ? -1000 - rng.next() * 5 : -1 - rng.next() * 0.5
            let spread: Float = far ? 300 : 0.3
            let p = Vec3((rng.next() - 0.5) * spread, (rng.next() - 0.5) * spread, z)
            cloud.append(position: p, scale: Vec3(repeating: far ? 8 : 0.01), rotation: .identity, opacity: 0.8,
                         dc: SplatCloud.dcFromColor(Vec3(rng.next(), rng.next(), rng.next())))
        }
        SplatTestHelpers.expectMatch(cloud, camera: cam, name: "near-and-far")
    }
}

/// A tiny deterministic generator for the test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Float((z ^ (z >> 31)) >> 40) / Float(1 << 24)
    }
}
