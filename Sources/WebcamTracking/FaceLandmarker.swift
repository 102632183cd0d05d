// FaceLandmarker — MediaPipe's Face Landmarker: 478 landmarks and the head's pose per face.
import CWebcam
import Foundation
import Workers
import Media

/// One face as the landmarker sees it.
public struct FaceLandmarks: Sendable {
    /// The box around the landmarks, with the iris centres as its eyes (pixels).
    public var face: DetectedFace
    /// 478 points: x, y in pixels (pixel centres at integers), z relative depth in x's scale.
    public var points: [SIMD3<Double>]
    /// The column-major 4×4 transform from MediaPipe's canonical face (centimetres) into its
    /// virtual camera (63° vertical field of view, OpenGL axes), when MediaPipe gave one.
    public var transform: [Double]?

    /// Index of the person's right and left iris centres in `points`.
    public static let rightIris = 468, leftIris = 473
}

/// The Face Landmarker in VIDEO mode (it tracks each face from the previous frame). One thread
/// at a time (the processing thread; calls take turns behind a lock); frames must come in time order.
public final class FaceLandmarker: Sendable {
    /// The native landmarker, its output buffer and the faces the last call returned (VIDEO
    /// mode was following them): used only under the lock.
    private struct Native {
        let handle: OpaquePointer
        var buffer: [sfw_face_landmarks]
        var following = 0
    }
    private let native: Locked<Native>
    /// The canonical face from the same bundle, for refitting the pose through the real camera
    /// (nil when the bundle lacks it: the transform is used alone).
    public let canonicalFace: CanonicalFace?

    /// Creates a landmarker following at most `maxFaces` faces. Throws `WebcamError.detector`
    /// naming the missing or unloadable file.
    public init(models: WebcamModels, maxFaces: Int = 1) throws {
        if let missing = [models.library, models.landmarkerModel].first(where: { !FileManager.default.fileExists(atPath: $0) }) {
            throw WebcamError.detector("\(missing): missing (run Scripts/fetch-webcam-models.sh, or `make run` does it)")
        }
        let (h, message) = withNativeErrorBuffer { err, len in
            sfw_landmarker_create(models.library, models.landmarkerModel, Int32(maxFaces), 0.5, err, len)
        }
        guard let h else { throw WebcamError.detector(message.isEmpty ? "face landmarker unavailable" : message) }
        canonicalFace = try? CanonicalFace.load(task: models.landmarkerModel)
        native = Locked(Native(handle: h, buffer: [sfw_face_landmarks](repeating: sfw_face_landmarks(), count: maxFaces)))
    }

    deinit { native.withLock { sfw_landmarker_destroy($0.handle) } }

    /// The faces in `frame` (in no particular order). VIDEO mode follows the last frame's faces
    /// and runs its face detector only when it follows none, so a face lost in this frame (a
    /// jump, a cut) is searched for once more in the same frame. Throws `WebcamError.detection`.
    public func detect(_ frame: RGBFrame) throws -> [FaceLandmarks] {
        try native.withLock { n in
            var faces = try Self.detectOnce(&n, frame)
            if faces.isEmpty && n.following > 0 { faces = try Self.detectOnce(&n, frame) }
            n.following = faces.count
            return faces
        }
    }

    private static func detectOnce(_ native: inout Native, _ frame: RGBFrame) throws -> [FaceLandmarks] {
        let handle = native.handle
        guard frame.width > 0, frame.height > 0, frame.pixels.count >= frame.width * frame.height * 3 else { return [] }
        let capacity = Int32(native.buffer.count)
        let (n, message) = withNativeErrorBuffer { err, len -> Int32 in
            frame.pixels.withUnsafeBufferPointer { px in
                native.buffer.withUnsafeMutableBufferPointer { out in
                    sfw_landmarker_detect(handle, px.baseAddress, Int32(frame.width), Int32(frame.height), 0,
                                          Int64((frame.timestamp * 1000).rounded()), out.baseAddress, capacity, err, len)
                }
            }
        }
        guard n >= 0 else { throw WebcamError.detection(message) }
        return (0..<Int(n)).map { convert(&native.buffer[$0]) }
    }

    private static func convert(_ f: inout sfw_face_landmarks) -> FaceLandmarks {
        let count = Int(max(0, min(f.landmark_count, SFW_FACE_LANDMARKS)))
        var points: [SIMD3<Double>] = []
        points.reserveCapacity(count)
        withUnsafeBytes(of: &f.landmarks) { raw in
            let p = raw.bindMemory(to: Float.self)
            for i in 0..<count {
                let x = Double(p[3 * i]), y = Double(p[3 * i + 1]), z = Double(p[3 * i + 2])
                points.append(SIMD3(x, y, z))
            }
        }
        let transform: [Double]? = f.has_matrix != 0
            ? withUnsafeBytes(of: &f.matrix) { raw in raw.bindMemory(to: Float.self).map(Double.init) } : nil
        var eyes: (right: SIMD2<Double>, left: SIMD2<Double>)?
        if count > FaceLandmarks.leftIris {
            let r = points[FaceLandmarks.rightIris], l = points[FaceLandmarks.leftIris]
            eyes = (SIMD2(r.x, r.y), SIMD2(l.x, l.y))
        }
        let face = DetectedFace(x: Double(f.x), y: Double(f.y), width: Double(f.w), height: Double(f.h), score: 1, eyes: eyes,
                                keypoints: eyes.map { [$0.right, $0.left] } ?? [])
        return FaceLandmarks(face: face, points: points, transform: transform)
    }
}
