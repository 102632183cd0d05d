// The two blend kernels — 8-lane windows over the tile in L1 (AVX2) and 4×4-pixel blocks in
// registers (AVX-512) — do the same arithmetic per pixel, so their frames must be the same to
// the byte, colour and depth: partial tiles, tiles deeper than one sub-binning chunk, big and
// small splats, a depth test over an existing image, depth writes off, anti-aliasing on. The
// rule is identity, not "one level on 0.1 % of pixels": every kernel meets it. The block
// kernel runs in two compiles — the build's baseline (AVX2) and SplatRenderAVX512 — and where
// the CPU has AVX-512 both are held to the same rule; elsewhere that half skips, saying so.
// (Each kernel also meets the reference through the suite's other tests on a machine whose
// native kernel it is; this pins the others to it everywhere.)
import Foundation
import Procedural
import RenderCore
@testable import SplatRender
import Testing
import TestSupport

@Suite("blend kernels agree")
struct BlendKernelTests {
    typealias H = SplatTestHelpers

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var cloud: @Sendable () -> SplatCloud
        var camera: Camera
        var depthTest = false
        var writesDepth = true
        var antialias = false
        var testDescription: String { name }
    }

    /// A slanted depth ramp through the scene and a colour gradient, as a mesh drawn first.
    static func prefill(_ fb: Framebuffer) {
        for y in 0..<fb.height {
            for x in 0..<fb.width {
                let p = y * fb.width + x
                fb.color[p] = PackedColor.pack(r: UInt8(x % 256), g: UInt8((y * 3) % 256), b: 90)
                fb.depth[p] = x % 37 < 5 ? .infinity : 1.0 + 0.8 * Float(x) / Float(fb.width)
            }
        }
    }

    static let objectCamera = H.lookAtCamera(eye: Vec3(0.2, 0.4, 1.3), target: Vec3(0, -0.1, 0), width: 173, height: 131)

    static let cases: [Case] = [
        // 333×250: the last tile column is 13 px wide and the last row 10 px high; ~1,000
        // pairs a tile, several chunks each.
        Case(name: "room 200k, partial tiles", cloud: { SplatSceneGenerator.room(count: 200_000, seed: 3) },
             camera: SplatSceneGenerator.roomCamera(width: 333, height: 250)),
        // Close up: splats tens of pixels wide, spanning many blocks and tiles.
        Case(name: "object close-up", cloud: { SplatSceneGenerator.object(count: 3000, seed: 5) },
             camera: H.lookAtCamera(eye: Vec3(0.1, 0.15, 0.45), target: Vec3(0, 0, 0), width: 160, height: 120)),
        Case(name: "depth test", cloud: { SplatSceneGenerator.object(count: 4000, seed: 9) },
             camera: objectCamera, depthTest: true),
        Case(name: "depth test, no depth writes", cloud: { SplatSceneGenerator.object(count: 4000, seed: 9) },
             camera: objectCamera, depthTest: true, writesDepth: false),
        Case(name: "anti-aliased", cloud: { SplatSceneGenerator.object(count: 4000, seed: 2) },
             camera: objectCamera, antialias: true),
    ]

    static func render(_ kernel: BlendKernel, _ splats: PreparedSplats, _ c: Case,
                       avx512: Bool = false) -> (Framebuffer, SplatStageTimes) {
        let fb = Framebuffer(width: c.camera.width, height: c.camera.height)
        if c.depthTest { prefill(fb) }
        let renderer = SplatRenderer(threads: 2)
        renderer.blendKernel = kernel
        renderer.allowsAVX512 = avx512
        #expect(renderer.blendInstructionSet == (avx512 ? .avx512 : .baseline))
        renderer.writesDepth = c.writesDepth
        renderer.antialias = c.antialias
        // Every render sorts its tiles: the splats' kept depth order (made on a second frame at
        // one rotation, shared by renderers) orders equal depths otherwise, and the kernels, not
        // the order, are compared here.
        renderer.reusesDepthOrder = false
        let times = renderer.render(splats, camera: c.camera, into: fb, depthTest: c.depthTest)
        return (fb, times)
    }

    @Test(arguments: cases)
    func kernelsGiveTheSameBytes(_ c: Case) {
        let splats = SplatRenderer.prepare(c.cloud())
        let (windows, times) = Self.render(.lanes8, splats, c)
        let (blocks, _) = Self.render(.blocks, splats, c)
        Self.expectSame(windows, blocks, "\(c.name), lanes8 vs blocks (\(KernelInstructionSet.baseline.name))", times, c)
    }

    @Test("the block kernel's AVX-512 compile gives the bytes of its baseline compile", arguments: cases)
    func avx512CompileGivesTheSameBytes(_ c: Case) throws {
        guard CPUDispatch.avx512Available else {
            print("skipped: the AVX-512 half of the kernel comparison needs AVX-512 here — \(CPUDispatch.summary)")
            return
        }
        let splats = SplatRenderer.prepare(c.cloud())
        let (baseline, times) = Self.render(.blocks, splats, c)
        let (wide, _) = Self.render(.blocks, splats, c, avx512: true)
        Self.expectSame(baseline, wide, "\(c.name), blocks baseline vs AVX-512", times, c)
    }

    static func expectSame(_ windows: Framebuffer, _ blocks: Framebuffer, _ name: String, _ times: SplatStageTimes, _ c: Case) {
        let a = windows.colorArray, b = blocks.colorArray
        let differing = (0..<a.count).filter { a[$0] != b[$0] }.count
        if differing > 0 {
            let dir = ImageComparison.writeFailureImages(name: "kernels-\(name)", actual: blocks.image(), expected: windows.image())
            Issue.record("\(name): \(differing) pixels differ between the kernels (images in \(dir))")
        }
        let da = windows.depthArray, db = blocks.depthArray
        let depthDiffering = (0..<da.count).filter { da[$0].bitPattern != db[$0].bitPattern }.count
        #expect(depthDiffering == 0, "\(name): \(depthDiffering) depth values differ")
        // Not a trivial frame: splats cover much of it.
        let covered = da.filter(\.isFinite).count
        print("blend kernels, \(name): \(times.tileSplatPairs) pairs, \(covered) pixels with splat depth, \(differing) differ")
        #expect(times.tileSplatPairs > 2000, "\(c.name): too little work to compare (\(times))")
        if c.name.hasPrefix("room") {
            let tiles = ((c.camera.width + 15) / 16) * ((c.camera.height + 15) / 16)
            #expect(times.tileSplatPairs / tiles > 2 * BlockBlendScratch.chunkPairs,
                    "tiles should hold several sub-binning chunks: \(times.tileSplatPairs) pairs in \(tiles) tiles")
        }
    }
}
