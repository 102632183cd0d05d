// DetectedFace — one face as a detector reports it, in image pixels.

/// A face in image pixels (top-left origin; point coordinates with pixel centres at integers).
public struct DetectedFace: Sendable, Equatable {
    /// Box: top-left corner and size in pixels (may extend past the image).
    public var x: Double, y: Double, width: Double, height: Double
    /// MediaPipe: probability 0…1; Haar: merged raw detections (not a probability).
    public var score: Double
    /// The person's right eye (image left) and left eye, when both were found.
    public var eyes: (right: SIMD2<Double>, left: SIMD2<Double>)?
    /// All keypoints the detector gives (MediaPipe: right eye, left eye, nose, mouth, right and left tragion).
    public var keypoints: [SIMD2<Double>]

    public init(x: Double, y: Double, width: Double, height: Double, score: Double,
                eyes: (right: SIMD2<Double>, left: SIMD2<Double>)?, keypoints: [SIMD2<Double>] = []) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.score = score
        self.eyes = eyes; self.keypoints = keypoints
    }

    /// Box centre in pixels.
    public var centre: SIMD2<Double> { SIMD2(x + width / 2, y + height / 2) }
    /// Box area in square pixels.
    public var area: Double { width * height }

    public static func == (a: DetectedFace, b: DetectedFace) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.score == b.score
            && a.eyes?.right == b.eyes?.right && a.eyes?.left == b.eyes?.left && a.keypoints == b.keypoints
    }
}
