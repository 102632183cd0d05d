// Edge cases of the fast renderer: nothing to draw, wrong target size, reuse across sizes.
import Procedural
import RenderCore
@testable import SplatRender
import Testing
import TestSupport

@Suite struct EdgeCaseTests {
    typealias H = SplatTestHelpers

    @Test func emptyCloudAndAllCulledGiveBackground() {
        let cam = H.lookAtCamera(eye: Vec3(0, 0, 2), target: .zero, width: 40, height: 30, background: Vec3(0.2, 0.4, 0.6))
        let bg = PackedColor.pack(Vec4(0.2, 0.4, 0.6, 1))
        let renderer = SplatRenderer(threads: 2)
        let fb = Framebuffer(width: 40, height: 30)
        let t = renderer.render(SplatCloud(shDegree: 3), camera: cam, into: fb)
        #expect(t.visibleSplats == 0 && t.tileSplatPairs == 0)
        #expect(fb.colorArray.allSatisfy { $0 == bg } && fb.depthArray.allSatisfy { $0 == .infinity })
        // The object behind the camera: everything culled.
        let cloud = SplatSceneGenerator.object(count: 500, seed: 1)
        let away = H.lookAtCamera(eye: Vec3(0, 0, 2), target: Vec3(0, 0, 4), width: 40, height: 30,
                                  background: Vec3(0.2, 0.4, 0.6))
        #expect(renderer.render(cloud, camera: away, into: fb).visibleSplats == 0)
        #expect(fb.colorArray.allSatisfy { $0 == bg })
    }

    @Test func targetIsResizedAndBuffersAreReusedAcrossSizes() {
        let cloud = SplatSceneGenerator.object(count: 800, seed: 2)
        let prepared = SplatRenderer.prepare(cloud)
        let renderer = SplatRenderer(threads: 2)
        let fb = Framebuffer(width: 7, height: 5)
        for (w, h) in [(64, 48), (33, 17), (96, 60), (64, 48)] {
            let cam = H.lookAtCamera(eye: Vec3(0.2, 0.3, 1.3), target: Vec3(0, -0.1, 0), width: w, height: h)
            renderer.render(prepared, camera: cam, into: fb)
            #expect(fb.width == w && fb.height == h)
            let ref = Framebuffer(width: w, height: h)
            ReferenceSplatRenderer.render(cloud, camera: cam, into: ref)
            let cmp = ImageComparison(fb.image(), ref.image())
            #expect(cmp.psnr >= 50 && cmp.maxError <= 2, "\(w)x\(h): \(cmp)")
        }
    }

    @Test func depthTestWithNothingInFrontKeepsTheTarget() {
        let cloud = SplatSceneGenerator.object(count: 800, seed: 3)
        let cam = H.lookAtCamera(eye: Vec3(0.2, 0.3, 1.3), target: Vec3(0, -0.1, 0), width: 48, height: 32)
        let fb = Framebuffer(width: 48, height: 32)
        for p in 0..<fb.pixelCount { fb.color[p] = PackedColor.pack(r: 10, g: UInt8(p % 256), b: 30); fb.depth[p] = 0.1 }
        let before = fb.colorArray
        SplatRenderer(threads: 2).render(SplatRenderer.prepare(cloud), camera: cam, into: fb, depthTest: true)
        #expect(fb.colorArray == before)
        #expect(fb.depthArray.allSatisfy { $0 == 0.1 })
    }

    @Test func skippingDepthKeepsColourAndLeavesDepthAlone() {
        let cloud = SplatSceneGenerator.object(count: 1500, seed: 5)
        let prepared = SplatRenderer.prepare(cloud)
        let cam = H.lookAtCamera(eye: Vec3(0.2, 0.3, 1.3), target: Vec3(0, -0.1, 0), width: 80, height: 50)
        let withDepth = Framebuffer(width: 80, height: 50), without = Framebuffer(width: 80, height: 50)
        SplatRenderer(threads: 2).render(prepared, camera: cam, into: withDepth)
        without.depth.update(repeating: 7, count: without.pixelCount)
        let r = SplatRenderer(threads: 2)
        r.writesDepth = false
        r.render(prepared, camera: cam, into: without)
        #expect(without.colorArray == withDepth.colorArray)
        #expect(without.depthArray.allSatisfy { $0 == 7 })
        #expect(withDepth.depthArray.contains { $0.isFinite })
    }
}

@Suite struct FrameSetupTests {
    @Test func cameraCentreMatchesCameraPosition() {
        for (eye, target) in [(Vec3(0.8, 0.9, 2.6), Vec3(-0.2, 0.3, -3)), (Vec3(-3, 1, 0.5), Vec3(0, 0, 0))] {
            let view = Matrix4.lookAt(eye: eye, target: target, up: Vec3(0, 1, 0))
            let scaled = Matrix4.scale(Vec3(2, 0.5, 1.5)) * view
            for v in [view, scaled] {
                let cam = Camera(width: 4, height: 4, view: v, projection: .identity)
                let c = FrameSetup.cameraCentre(v), p = cam.position
                #expect(abs(c.x - p.x) < 1e-5 && abs(c.y - p.y) < 1e-5 && abs(c.z - p.z) < 1e-5, "\(c) vs \(p)")
            }
        }
    }
}

@Suite struct PairBudgetTests {
    @Test func overBudgetFramesKeepTheNearestSplats() {
        let cloud = SplatSceneGenerator.object(count: 3000, seed: 8)
        let cam = SplatTestHelpers.lookAtCamera(eye: Vec3(0.2, 0.3, 1.3), target: Vec3(0, -0.1, 0), width: 96, height: 64)
        let prepared = SplatRenderer.prepare(cloud)
        let full = SplatRenderer(threads: 2)
        let fb = Framebuffer(width: 96, height: 64)
        let all = full.render(prepared, camera: cam, into: fb)
        #expect(all.droppedSplats == 0)
        let tight = SplatRenderer(threads: 2)
        tight.maxTileSplatPairs = all.tileSplatPairs / 3
        let some = tight.render(prepared, camera: cam, into: fb)
        #expect(some.droppedSplats > 0 && some.tileSplatPairs <= tight.maxTileSplatPairs)
        #expect(some.visibleSplats == all.visibleSplats)
    }
}

@Suite struct DepthTieTests {
    /// Splats at exactly the same depth blend in source order, as the reference sorts them,
    /// although `prepare` stores them in spatial (Morton) order: here the reverse of the
    /// source order, so a renderer that broke ties by slot would paint the other splat on top.
    @Test func equalDepthsBlendInSourceOrder() throws {
        var cloud = SplatCloud(shDegree: 0)
        // Overlapping, nearly opaque, same z: the later source splat lies nearer the origin of
        // the Morton grid, so it comes first in slot order.
        let colours = [Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)]
        for (i, c) in colours.enumerated() {
            cloud.append(position: Vec3(0.02 * Float(2 - i), 0.02 * Float(2 - i), 0), scale: Vec3(0.08, 0.08, 0.01),
                         rotation: .identity, opacity: 0.95, dc: SplatCloud.dcFromColor(c), rest: [])
        }
        let prepared = SplatRenderer.prepare(cloud)
        #expect((0..<3).map { prepared.sourceIndex[$0] } == [2, 1, 0], "the test needs slots out of source order")
        let cam = SplatTestHelpers.lookAtCamera(eye: Vec3(0.02, 0.02, 1.5), target: Vec3(0.02, 0.02, 0), width: 64, height: 64)
        let cmp = SplatTestHelpers.expectMatch(cloud, camera: cam, name: "equal-depth-ties", minCovered: 500)
        #expect(cmp.maxError <= 1)
    }
}
