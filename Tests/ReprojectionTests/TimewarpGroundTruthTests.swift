// Timewarp against true renders: a frame rendered at eye A and warped to eye B, compared with
// the frame rendered at B (and the stale frame A shown unwarped, for scale).
import Foundation
import Testing
import RenderCore
import TestSupport
import Viewer
@testable import Reprojection

@Suite("timewarp against true renders")
struct TimewarpGroundTruthTests {
    static let setup = ViewingSetup(screen: ScreenGeometry(width: 0.6, height: 0.34))
    static let width = 640, height = 360
    static let eye = Vec3(0, 0, 0.6)

    /// PSNR (dB) of the warped frame and of the unwarped one against the render at `eye + move`.
    static func compare(_ path: String, move: Vec3, name: String) throws -> (warped: ImageComparison, stale: ImageComparison) {
        let scene = try SceneLoader.load(path: path).scene(screen: setup.screen.value)
        let context = RenderContext(threads: 2)   // producesDepth: splats write theirs too
        let a = setup.camera(eye: eye, width: width, height: height), b = setup.camera(eye: eye + move, width: width, height: height)
        let atA = Framebuffer(width: width, height: height), atB = Framebuffer(width: width, height: height)
        _ = scene.render(camera: a, into: atA, context: context)
        _ = scene.render(camera: b, into: atB, context: context)
        let warped = Framebuffer(width: width, height: height)
        try Timewarp(threads: 2).warp(atA, from: a, to: b, into: warped)
        let truth = atB.image()
        let w = ImageComparison(warped.image(), truth), s = ImageComparison(atA.image(), truth)
        if w.psnr < 30 { ImageComparison.writeFailureImages(name: name, actual: warped.image(), expected: truth) }
        print("timewarp \(name): warped \(w), stale \(s)")
        return (w, s)
    }

    @Test(arguments: [("cube", "mesh room"), ("generate:60k", "splat object")])
    func aOneCentimetreMoveAtSixtyCentimetresIsWarpedToThirtyDecibels(path: String, label: String) throws {
        for (move, direction) in [(Vec3(0.01, 0, 0), "right"), (Vec3(-0.006, 0.008, 0), "up-left")] {
            let r = try Self.compare(path, move: move, name: "\(label)-1cm-\(direction)".replacingOccurrences(of: " ", with: "-"))
            #expect(r.warped.psnr >= 30, "\(label), 1 cm \(direction): \(r.warped)")
            #expect(r.warped.psnr >= r.stale.psnr + 3, "\(label), 1 cm \(direction): the warp gains little over the stale frame (\(r.stale))")
        }
    }
}
