// EyePipeline — frame → tracked face → eyes in screen space: the synchronous core that the
// threaded webcam source and the offline `track webcam` command share.
import Media
import HeadTracking
import RenderCore
import Workers

/// Runs the face back end, tracking and the eye model on one frame at a time.
public final class EyePipeline: Sendable {
    /// How faces are found.
    public enum Finder: Sendable {
        /// The Face Landmarker: landmarks and the head's pose; eyes placed by `HeadPoseModel`.
        /// `backup` (BlazeFace, with its full-range model) finds the eyes in frames where the
        /// landmarker sees no face — a face smaller than its detector's ~55 px, i.e. a viewer
        /// beyond about a metre from a 640-pixel camera — without a pose.
        case landmarker(FaceLandmarker, backup: FaceDetector?)
        /// A box detector (BlazeFace or Haar): eyes from the eye centres' spacing (`PinholeEyeModel`).
        case detector(FaceDetector)
    }

    public let finder: Finder
    /// The back end in use (for the HUD, `--stats` and log headers).
    public let backend: DetectorBackend
    public var model: PinholeEyeModel {
        get { state.withLock { $0.model } }
        set { state.withLock { $0.model = newValue } }
    }
    public var tracker: FaceTracker { state.withLock { $0.tracker } }
    /// Nominal face-box width (metres) for the box-only distance estimate.
    public var faceWidth: Double {
        get { state.withLock { $0.faceWidth } }
        set { state.withLock { $0.faceWidth = newValue } }
    }
    /// BlazeFace: place the eyes by the head pose fitted to its six keypoints (else by the eye
    /// spacing alone).
    public var useKeypointPose: Bool {
        get { state.withLock { $0.useKeypointPose } }
        set { state.withLock { $0.useKeypointPose = newValue } }
    }

    /// The settings and the tracked face, set from any thread, read by `process` once per frame.
    private struct State {
        var model: PinholeEyeModel
        var tracker = FaceTracker()
        var faceWidth = 0.15
        var useKeypointPose = true
    }
    private let state: Locked<State>

    /// A pipeline over a box detector.
    public init(detector: FaceDetector, model: PinholeEyeModel) {
        finder = .detector(detector); backend = detector.backend; state = Locked(State(model: model))
    }

    /// A pipeline over the Face Landmarker, with an optional BlazeFace `backup` for far faces.
    public init(landmarker: FaceLandmarker, backup: FaceDetector? = nil, model: PinholeEyeModel) {
        finder = .landmarker(landmarker, backup: backup); backend = .landmarker; state = Locked(State(model: model))
    }

    /// The best pipeline that can be had, trying the landmarker, then BlazeFace, then Haar (or
    /// only `prefer`, which then must work). `notice` hears once about each fall-back taken.
    public static func best(models: WebcamModels, model: PinholeEyeModel, prefer: DetectorBackend? = nil,
                            notice: (String) -> Void) throws -> EyePipeline {
        let chain = prefer.map { [$0] } ?? DetectorBackend.allCases
        var lastError: Error?
        for (i, backend) in chain.enumerated() {
            do {
                switch backend {
                case .landmarker:
                    return EyePipeline(landmarker: try FaceLandmarker(models: models),
                                       backup: try? FaceDetector(backend: .blazeface, models: models), model: model)
                case .blazeface, .haar: return EyePipeline(detector: try FaceDetector(backend: backend, models: models), model: model)
                }
            } catch {
                lastError = error
                guard i + 1 < chain.count else { break }
                let next = chain[i + 1]
                notice("\(Self.title(backend)) unavailable (\(error)); using \(Self.title(next))"
                       + (next == .haar ? " (slower, jitterier, no head pose)" : " (no head pose: a turned head reads as farther)"))
            }
        }
        throw lastError ?? WebcamError.detector("no face back end")
    }

    static func title(_ b: DetectorBackend) -> String {
        switch b {
        case .landmarker: return "MediaPipe's face landmarker"
        case .blazeface: return "MediaPipe BlazeFace"
        case .haar: return "OpenCV's Haar cascades"
        }
    }

    /// Processes `frame`. Throws `WebcamError.detection` if the back end fails. Frames come
    /// from one thread at a time (the tracker follows them in order).
    public func process(_ frame: RGBFrame) throws -> EyeObservation {
        let t0 = MonotonicClock.now()
        let settings = state.withLock { $0 }
        let model = settings.model, faceWidth = settings.faceWidth, useKeypointPose = settings.useKeypointPose
        var tracker = settings.tracker
        defer { state.withLock { [tracker] in $0.tracker = tracker } }
        let width = Double(frame.width), height = Double(frame.height)
        var eyes: EyePoints?
        var angles: Vec3d?
        let face: DetectedFace?, search: FaceTracker.Search
        switch finder {
        case .landmarker(let landmarker, let backup):
            let all = try landmarker.detect(frame)
            if all.isEmpty, let backup {
                (face, search) = try tracker.track(width: frame.width, height: frame.height) { roi, full in
                    try backup.detect(frame, roi: roi, fullRange: full)
                }
                if let e = face?.eyes { eyes = model.eyes(personRight: e.right, personLeft: e.left, width: width, height: height) }
                break
            }
            let chosen = tracker.follow(all.map(\.face))
            face = chosen.map { all[$0].face }
            search = chosen == nil ? .none : .landmarks
            if let i = chosen, let m = all[i].transform,
               let pose = HeadPoseModel.pose(transform: m, width: width, height: height, model: model,
                                             landmarks: all[i].points, face: landmarker.canonicalFace) {
                let centre = (pose.right + pose.left) / 2
                let irisSpacing = all[i].face.eyes.map { simd_length($0.left - $0.right) } ?? 0
                eyes = EyePoints(centre: centre, right: pose.right, left: pose.left, distance: centre.z - model.cameraPosition.z,
                                 eyeDistancePixels: irisSpacing, roll: pose.angles.z)
                angles = pose.angles
            }
        case .detector(let detector):
            (face, search) = try tracker.track(width: frame.width, height: frame.height) { roi, full in
                try detector.detect(frame, roi: roi, fullRange: full)
            }
            if let f = face, let e = f.eyes {
                eyes = model.eyes(personRight: e.right, personLeft: e.left, width: width, height: height)
                // BlazeFace's six keypoints give the head's pose too: place the eyes by it.
                if useKeypointPose, let pose = HeadPoseModel.pose(blazeFaceKeypoints: f.keypoints, width: width, height: height, model: model),
                   let base = eyes {
                    let centre = (pose.right + pose.left) / 2
                    eyes = EyePoints(centre: centre, right: pose.right, left: pose.left, distance: centre.z - model.cameraPosition.z,
                                     eyeDistancePixels: base.eyeDistancePixels, roll: pose.angles.z)
                    angles = pose.angles
                }
            }
        }
        let boxDistance = face.flatMap { $0.width > 1 ? model.focal(forWidth: width) * faceWidth / $0.width : nil }
        return EyeObservation(timestamp: frame.timestamp, frameIndex: frame.index, width: frame.width, height: frame.height,
                              face: face, search: search, eyes: eyes, angles: angles, boxDistance: boxDistance,
                              processingTime: MonotonicClock.now() - t0)
    }

    /// Forgets the tracked face.
    public func reset() { state.withLock { $0.tracker.reset() } }
}
