// A million splats through the fast path, checked against the slow reference on a crop: the
// full 1280×720 frame of the procedural room is rendered fast (1M-key sort, full tile lists,
// early termination at real depth complexity) and a 48×32 window of it is compared with the
// reference renderer drawing only that window (an off-axis camera over the same pixels).
import Foundation
import Procedural
import RenderCore
import SplatRender
import Testing
import TestSupport

@Suite("a million splats")
struct MillionSplatCropTests {
    /// `camera` narrowed to the pixel rectangle (x0, y0, w, h) of its image: the same view, and
    /// a projection whose NDC square covers exactly those pixels (image y down).
    static func crop(_ camera: Camera, x0: Int, y0: Int, w: Int, h: Int) -> Camera {
        let W = Float(camera.width), H = Float(camera.height), fw = Float(w), fh = Float(h)
        let sx = W / fw, sy = H / fh
        let tx = sx - 2 * Float(x0) / fw - 1, ty = 1 - sy + 2 * Float(y0) / fh
        let s = Matrix4(Vec4(sx, 0, 0, 0), Vec4(0, sy, 0, 0), Vec4(0, 0, 1, 0), Vec4(tx, ty, 0, 1))
        var c = camera
        c.width = w; c.height = h
        c.projection = s * camera.projection
        return c
    }

    @Test func fastFrameMatchesTheReferenceOnCrops() throws {
        let cloud = SplatSceneGenerator.room(count: 1_000_000)
        let camera = SplatSceneGenerator.roomCamera(width: 1280, height: 720)
        let fast = Framebuffer(width: camera.width, height: camera.height)
        let times = SplatRenderer(threads: 2).render(SplatRenderer.prepare(cloud), camera: camera, into: fast)
        #expect(times.visibleSplats > 500_000, "the room camera should see most of the million splats: \(times)")
        // Crops on the sphere's edge, the wall, and the floor's checker seen at a grazing angle.
        for (x0, y0) in [(600, 300), (200, 120), (900, 620)] {
            let w = 48, h = 32
            let ref = ReferenceSplatRenderer.render(cloud, camera: Self.crop(camera, x0: x0, y0: y0, w: w, h: h))
            var pixels = [UInt32](repeating: 0, count: w * h)
            for j in 0..<h { for i in 0..<w { pixels[j * w + i] = fast.pixel(x: x0 + i, y: y0 + j) } }
            let actual = RGBAImage(width: w, height: h, pixels: pixels)
            let cmp = ImageComparison(actual, ref.image())
            print("1M splats, crop (\(x0), \(y0)) \(w)x\(h): \(cmp)")
            if cmp.psnr < 40 {
                let dir = ImageComparison.writeFailureImages(name: "million-crop-\(x0)-\(y0)", actual: actual, expected: ref.image())
                Issue.record("crop (\(x0), \(y0)): \(cmp) (images in \(dir))")
            }
            // Not a blank crop: the reference shows splats there.
            let bg = PackedColor.pack(Vec4(camera.background.x, camera.background.y, camera.background.z, 1))
            #expect(ref.colorArray.filter { $0 != bg }.count > w * h / 2, "crop (\(x0), \(y0)) shows no splats")
        }
    }
}
