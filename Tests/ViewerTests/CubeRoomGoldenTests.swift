import Foundation
import ImageIO
import Procedural
import RenderCore
import TestSupport
import Testing
import Viewer

/// Golden images of the cube room: regressions in the rasterizer, textures or projection show
/// up as a PSNR drop. Set SPLATFRAME_UPDATE_GOLDENS=1 to rewrite them after an intended change.
@Suite("Cube room golden images")
struct CubeRoomGoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    @Test("matches the golden image", arguments: [
        ("neutral", Vec3(0, 0, 0.6)), ("right-up-close", Vec3(0.22, 0.12, 0.35)), ("left-down-far", Vec3(-0.35, -0.2, 1.1)),
    ])
    func golden(name: String, eye: Vec3) throws {
        let scene = MeshScene(room: CubeRoom(screen: Self.screen))
        let cam = OffAxisFrustum.camera(eye: eye, screen: Self.screen, width: 320, height: 180)
        let fb = Framebuffer(width: 320, height: 180)
        _ = scene.render(camera: cam, into: fb, context: RenderContext(threads: 2))
        let path = Self.goldens.appendingPathComponent("cube-\(name).png").path
        if ProcessInfo.processInfo.environment["SPLATFRAME_UPDATE_GOLDENS"] == "1" {
            try ImageFile.savePNG(fb.image(), to: path)
            return
        }
        let expected = try ImageFile.load(path)
        let cmp = ImageComparison(fb.image(), expected)
        if cmp.psnr < 40 { ImageComparison.writeFailureImages(name: "cube-\(name)", actual: fb.image(), expected: expected) }
        #expect(cmp.psnr >= 40, "\(cmp)")
    }
}
