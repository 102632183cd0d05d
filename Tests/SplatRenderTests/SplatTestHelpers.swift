// Shared helpers for the splat renderer tests: render with both renderers and compare.
import Foundation
import RenderCore
import SplatRender
import Testing
import TestSupport

enum SplatTestHelpers {
    /// A camera at `eye` looking at `target` (y up), symmetric frustum.
    static func lookAtCamera(eye: Vec3, target: Vec3, width: Int = 160, height: Int = 120,
                             fovY: Float = 50, near: Float = 0.05, background: Vec3 = Vec3(0.1, 0.2, 0.3)) -> Camera {
        Camera(width: width, height: height,
               view: Matrix4.lookAt(eye: eye, target: target, up: Vec3(0, 1, 0)),
               projection: Matrix4.perspective(fovY: fovY * .pi / 180, aspect: Float(width) / Float(height),
                                               near: near, far: 50),
               background: background)
    }

    /// Renders with the fast renderer (`threads` workers) and the reference, compares colour
    /// (PSNR ≥ 50 dB, max error ≤ 2) and depth, writes failure images, returns the comparison.
    @discardableResult
    static func expectMatch(_ cloud: SplatCloud, camera: Camera, name: String, threads: Int = 2,
                            antialias: Bool = false, minCovered: Int = 20, prefill: ((Framebuffer) -> Void)? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) -> ImageComparison {
        let depthTest = prefill != nil
        let fast = Framebuffer(width: camera.width, height: camera.height)
        let ref = Framebuffer(width: camera.width, height: camera.height)
        prefill?(fast); prefill?(ref)
        let renderer = SplatRenderer(threads: threads)
        renderer.antialias = antialias
        renderer.render(SplatRenderer.prepare(cloud), camera: camera, into: fast, depthTest: depthTest)
        ReferenceSplatRenderer.render(cloud, camera: camera, into: ref, depthTest: depthTest, antialias: antialias)
        let cmp = ImageComparison(fast.image(), ref.image())
        let ok = cmp.psnr >= 50 && cmp.maxError <= 2
        // Coverage: pixels that show splats (depth written, or colour off the background).
        let bgPacked = PackedColor.pack(Vec4(camera.background.x, camera.background.y, camera.background.z, 1))
        let refColor = ref.colorArray, refDepth = ref.depthArray
        let covered = (0..<refColor.count).filter { refDepth[$0].isFinite || (!depthTest && refColor[$0] != bgPacked) }.count
        print("splat reference match \(name) \(camera.width)x\(camera.height): \(cmp), \(covered) pixels show splats")
        #expect(covered >= minCovered, "\(name): only \(covered) pixels show splats", sourceLocation: sourceLocation)
        if !ok {
            let dir = ImageComparison.writeFailureImages(name: name, actual: fast.image(), expected: ref.image())
            Issue.record("\(name): \(cmp) (images in \(dir))", sourceLocation: sourceLocation)
        }
        // Depth: the same splat must cross ½ opacity almost everywhere.
        let fd = fast.depthArray, rd = ref.depthArray
        var depthMismatch = 0
        for i in 0..<fd.count where !(fd[i] == rd[i] || abs(fd[i] - rd[i]) <= 1e-5 * abs(rd[i])) { depthMismatch += 1 }
        #expect(depthMismatch <= max(2, fd.count / 1000), "\(name): \(depthMismatch) depth pixels differ",
                sourceLocation: sourceLocation)
        return cmp
    }

    /// One splat.
    static func single(position: Vec3, scale: Vec3, rotation: Quaternion = .identity, opacity: Float,
                       color: Vec3, shDegree: Int = 0, rest: [Float] = []) -> SplatCloud {
        var c = SplatCloud(shDegree: shDegree)
        c.append(position: position, scale: scale, rotation: rotation, opacity: opacity,
                 dc: SplatCloud.dcFromColor(color), rest: rest)
        return c
    }
}
