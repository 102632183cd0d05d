// Stereo: each eye is the mono frame from that eye's position; anaglyph and side-by-side composition.
import Foundation
import Testing
import HeadTracking
import RenderCore
import TestSupport
@testable import Viewer

@Suite("stereo")
struct StereoTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)
    static let pose = HeadPose(time: 0, position: Vec3d(0.03, -0.02, 0.55), state: .tracking)

    static func stereo(_ mode: StereoMode, width: Int = 160, height: Int = 90) throws -> StereoRenderer {
        let scene = try SceneLoader.load(path: "cube").scene(screen: screen)
        return StereoRenderer(mode: mode, ipd: 0.064, scene: scene, setup: ViewingSetup(screen: screen),
                              context: RenderContext(threads: 1), width: width, height: height)
    }

    @Test func eachEyeIsTheMonoFrameFromThatEyesPosition() throws {
        let s = try Self.stereo(.anaglyph(dubois: true))
        s.render(Self.pose, width: 160, height: 90)
        for (driver, dx) in [(s.left, -0.032), (s.right, 0.032)] {
            let mono = FrameDriver(scene: driver.scene, setup: ViewingSetup(screen: Self.screen), context: RenderContext(threads: 1),
                                   width: 160, height: 90)
            var p = Self.pose
            p.position.x += dx
            mono.render(.pose(p))
            #expect(mono.framebuffer.image().pixels == driver.framebuffer.image().pixels)
        }
        // A measured eye span wins over the IPD.
        var measured = Self.pose
        measured.eyeSpan = Vec3d(0.058, 0.01, 0)
        let e = s.eyes(for: measured)
        #expect(abs((e.right - e.left).x - 0.058) < 1e-12 && abs((e.right - e.left).y - 0.01) < 1e-12)
        measured.eyeSpan = Vec3d(0.2, 0, 0)   // implausible: ignored
        #expect(abs((s.eyes(for: measured).right - s.eyes(for: measured).left).x - 0.064) < 1e-12)
    }

    @Test func anaglyphImagesCoincideOnTheScreenPlaneAndSeparateAtDepth() throws {
        let s = try Self.stereo(.anaglyph(dubois: false))
        s.render(Self.pose, width: 320, height: 180)
        let out = s.output.image(), l = s.left.framebuffer.image(), r = s.right.framebuffer.image()
        for i in stride(from: 0, to: out.pixels.count, by: 97) {
            #expect(out.pixels[i] & 0xFF == l.pixels[i] & 0xFF && out.pixels[i] & 0xFFFF00 == r.pixels[i] & 0xFFFF00)
        }
        let (le, re) = s.eyes(for: Self.pose)
        func pixel(_ eye: Vec3d, _ point: Vec3) -> SIMD2<Float> {
            let cam = ViewingSetup(screen: Self.screen).camera(eye: Vec3(Float(eye.x), Float(eye.y), Float(eye.z)), width: 320, height: 180)
            return cam.project(point)!.pixel
        }
        let onScreen = Vec3(0.1, 0.05, 0), deep = Vec3(0.1, 0.05, -0.6)
        #expect(simd_distance(pixel(le, onScreen), pixel(re, onScreen)) < 1e-3, "zero parallax on the screen plane")
        // At depth d behind the screen the images separate by ipd·d/(z+d) metres on the screen.
        let sep = Double(pixel(re, deep).x - pixel(le, deep).x) / 320 * 0.6
        #expect(abs(sep - 0.064 * 0.6 / (0.55 + 0.6)) < 1e-4, "separation \(sep) m (uncrossed: the right eye sees it further right)")
        // The composed picture differs from either eye where the room is deep.
        #expect(ImageComparison(l, r).differingPixels > 1000)
    }

    @Test func sideBySideHalvesAndFullLetterbox() throws {
        let h = try Self.stereo(.sideBySide(half: true), width: 320, height: 180)
        h.render(Self.pose, width: 320, height: 180)
        #expect(h.left.framebuffer.width == 160 && h.left.framebuffer.height == 180)
        let out = h.output.image(), l = h.left.framebuffer.image(), r = h.right.framebuffer.image()
        #expect(out.pixels[5 * 320 + 10] == l.pixels[5 * 160 + 10] && out.pixels[5 * 320 + 170] == r.pixels[5 * 160 + 10])
        let f = try Self.stereo(.sideBySide(half: false), width: 320, height: 180)
        f.render(Self.pose, width: 320, height: 180)
        #expect(f.left.framebuffer.width == 160 && abs(f.left.framebuffer.height - 91) <= 1, "each eye keeps the screen's aspect")
        #expect(StereoMode(name: "hsbs") == .sideBySide(half: true))
        #expect(StereoMode(name: "interlaced") == nil)
    }
}

private func simd_distance(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float { ((a - b) * (a - b)).sum().squareRoot() }
