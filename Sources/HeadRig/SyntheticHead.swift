// SyntheticHead — MediaPipe's canonical face, textured from a photo by its own landmarks,
// rendered by our rasterizer as a webcam in the screen plane sees it.
import Foundation
import ImageIO
import Media
import Procedural
import RenderCore
import TriangleRaster
import WebcamTracking

/// A webcam looking out of the screen plane at the viewer: position (metres, screen space),
/// image size, horizontal field of view.
public struct RigCamera: Sendable {
    public var position: SIMD3<Double>
    public var width: Int, height: Int
    public var horizontalFOVDegrees: Double

    public init(position: SIMD3<Double> = SIMD3(0, 0.19, 0), width: Int = 640, height: Int = 480, horizontalFOVDegrees: Double = 60) {
        self.position = position; self.width = width; self.height = height; self.horizontalFOVDegrees = horizontalFOVDegrees
    }

    /// The same camera as the tracker's model (IPD: the canonical face's, 63.0 mm).
    public var eyeModel: PinholeEyeModel {
        PinholeEyeModel(horizontalFOVDegrees: horizontalFOVDegrees, imageWidth: Double(width),
                        ipd: HeadPoseModel.canonicalIPD / 100, cameraPosition: position)
    }

    /// The render camera (the camera JSON contract): looking along screen +z, y up.
    public var camera: Camera {
        let eye = Vec3(Float(position.x), Float(position.y), Float(position.z))
        let view = Matrix4.lookAt(eye: eye, target: eye + Vec3(0, 0, 1), up: Vec3(0, 1, 0))
        let tanH = tan(horizontalFOVDegrees * .pi / 360)
        let tanV = tanH * Double(height) / Double(width)
        let proj = Matrix4.perspective(fovY: Float(2 * atan(tanV)), aspect: Float(width) / Float(height), near: 0.05, far: 10)
        return Camera(width: width, height: height, view: view, projection: proj, background: Vec3(0.42, 0.40, 0.38))
    }
}

/// The textured face, ready to render.
public final class SyntheticHead {
    public let mesh: TriangleMesh
    private let rasterizer = TriangleRasterizer(threads: 1)
    private let framebuffer: Framebuffer

    /// The canonical face with each vertex's texture coordinate at the matching landmark of the
    /// face in `photo` (`landmarks` in pixels, from the Face Landmarker).
    public init(face: CanonicalFace, photo: RGBAImage, landmarks: [SIMD3<Double>], camera: RigCamera) throws {
        guard landmarks.count >= face.positions.count else {
            throw HeadRigError.noFace("the photo's landmarks are \(landmarks.count), expected \(face.positions.count)")
        }
        let texture = Texture(width: photo.width, height: photo.height)
        texture.update(photo)
        let w = Float(photo.width), h = Float(photo.height)
        mesh = TriangleMesh(positions: face.positions.map { Vec3($0.x, $0.y, $0.z) }, indices: face.indices,
                            uvs: landmarks.prefix(face.positions.count).map { Vec2((Float($0.x) + 0.5) / w, 1 - (Float($0.y) + 0.5) / h) },
                            materials: [TriangleMesh.Material(name: "face", texture: texture, lit: false)])
        framebuffer = Framebuffer(width: camera.width, height: camera.height)
    }

    /// Loads the canonical face from the landmarker bundle and textures it from the frontal face
    /// in the photo at `photoPath` (found by the Face Landmarker).
    public static func make(models: WebcamModels, photo photoPath: String, camera: RigCamera) throws -> SyntheticHead {
        let face = try CanonicalFace.load(task: models.landmarkerModel)
        let photo = try ImageFile.load(photoPath)
        let landmarker = try FaceLandmarker(models: models, maxFaces: 1)
        var rgb = [UInt8](repeating: 0, count: photo.width * photo.height * 3)
        for i in 0..<photo.width * photo.height {
            let p = photo.pixels[i]
            rgb[3 * i] = UInt8(p & 0xff); rgb[3 * i + 1] = UInt8(p >> 8 & 0xff); rgb[3 * i + 2] = UInt8(p >> 16 & 0xff)
        }
        guard let found = try landmarker.detect(RGBFrame(width: photo.width, height: photo.height, pixels: rgb)).first else {
            throw HeadRigError.noFace("\(photoPath): the face landmarker found no face")
        }
        return try SyntheticHead(face: face, photo: photo, landmarks: found.points, camera: camera)
    }

    /// Rounded Gaussian draws of standard deviation `sigma` (levels); each channel of each pixel
    /// takes one picked by 16 bits of the frame's random stream.
    private var noiseTable: (sigma: Double, values: [Int16]) = (-1, [])

    /// The head at `placement` through `camera`, with Gaussian noise of `noise` levels (standard
    /// deviation) added to every channel, drawn from `random` (a table of 65,536 draws indexed
    /// by the stream: fresh noise every frame, fast enough for a debug build).
    public func render(_ placement: HeadPlacement, camera: RigCamera, noise: Double, random: inout SeededRandom,
                       timestamp: Double, index: Int) -> RGBFrame {
        let cam = camera.camera
        framebuffer.clear(background: cam.background)
        _ = rasterizer.draw(mesh, model: placement.modelMatrix, camera: cam, into: framebuffer)
        if noise != noiseTable.sigma {
            var r = SeededRandom(seed: 0x5EED)
            noiseTable = (noise, (0..<65536).map { _ in Int16(max(-255, min(255, (noise * Double(r.normal())).rounded()))) })
        }
        var pixels = [UInt8](repeating: 0, count: camera.width * camera.height * 3)
        noiseTable.values.withUnsafeBufferPointer { table in
            var bits: UInt64 = 0
            for i in 0..<camera.width * camera.height {
                let p = framebuffer.color[i]
                for c in 0..<3 {
                    if (3 * i + c) & 3 == 0 { bits = random.next() }
                    let n = noise > 0 ? Int(table[Int(bits & 0xffff)]) : 0
                    bits >>= 16
                    pixels[3 * i + c] = UInt8(clamping: Int(p >> UInt32(8 * c) & 0xff) + n)
                }
            }
        }
        return RGBFrame(width: camera.width, height: camera.height, pixels: pixels, timestamp: timestamp, index: index)
    }
}
