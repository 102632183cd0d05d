// FaceTracker — which face to follow, and where to look for it next.

/// Follows one face from frame to frame. Each frame it searches near the last face first
/// (its box grown `searchGrowth`× — cheaper, and BlazeFace sees a far face bigger in a crop),
/// then the whole frame, then (when the detector has it) the whole frame with the full-range
/// model for far faces. A face found in a whole-frame search is detected once more in a crop
/// around it: BlazeFace looks at a 128-pixel input, so a whole 640-pixel frame places the eyes
/// only to ~5 pixels, a crop to about one (measured: without this, scaling a face by 1.4 moved
/// z by 0.60× instead of 0.71×). Of several faces it keeps the tracked one (the nearest to the
/// last face's centre, if it overlaps the last box), else the largest.
public struct FaceTracker: Sendable {
    /// How a frame's face was found.
    public enum Search: String, Sendable {
        case nearLastFace = "roi", fullFrame = "full", fullRange = "full-range"
        /// The landmarker's own tracking (it searches and follows faces itself).
        case landmarks
        case none
    }

    /// The box the last face had, if the last frame had one.
    public private(set) var lastFace: DetectedFace? { didSet { if lastFace == nil { window = nil } } }
    /// The crop searched first. Kept while the face stays well inside it (centre within 12 % of
    /// the window's size of its centre, size within 15 %), so a still face is seen through the
    /// same crop every frame: the crop no longer follows the detector's own jitter.
    public private(set) var window: (x: Double, y: Double, w: Double, h: Double)?
    /// Search window around the last face, as a multiple of its box.
    public var searchGrowth = 2.0

    public init() {}

    /// Finds this frame's face using `detect(roi, fullRange)`, which returns faces best first.
    public mutating func track(width: Int, height: Int,
                               detect: ((x: Double, y: Double, w: Double, h: Double)?, Bool) throws -> [DetectedFace]) rethrows
        -> (face: DetectedFace?, search: Search) {
        if let last = lastFace, let f = choose(try detect(window ?? searchWindow(around: last), false)) {
            lastFace = f
            updateWindow(for: f)
            return (f, .nearLastFace)
        }
        for (fullRange, search) in [(false, Search.fullFrame), (true, Search.fullRange)] {
            guard let found = choose(try detect(nil, fullRange)) else { continue }
            lastFace = found
            window = searchWindow(around: found)
            let refined = choose(try detect(window, false)) ?? found
            lastFace = refined
            updateWindow(for: refined)
            return (refined, search)
        }
        lastFace = nil
        return (nil, .none)
    }

    /// Of faces a back end found and tracks itself (the landmarker), the one to follow (its index
    /// in `faces`), by `choose`'s rule; remembers it for the next frame.
    public mutating func follow(_ faces: [DetectedFace]) -> Int? {
        guard let f = choose(faces), let i = faces.firstIndex(of: f) else { lastFace = nil; return nil }
        lastFace = f
        return i
    }

    /// Keeps the search window while `face` sits well inside it, else centres a new one on it.
    mutating func updateWindow(for face: DetectedFace) {
        if let w = window {
            let c = face.centre
            let dx = abs(c.x - (w.x + w.w / 2)) / w.w, dy = abs(c.y - (w.y + w.h / 2)) / w.h
            let size = face.width * searchGrowth / w.w
            if dx < 0.12 && dy < 0.12 && size > 0.85 && size < 1.15 { return }
        }
        window = searchWindow(around: face)
    }

    /// The box of `face` grown `searchGrowth`× about its centre.
    public func searchWindow(around face: DetectedFace) -> (x: Double, y: Double, w: Double, h: Double) {
        let w = face.width * searchGrowth, h = face.height * searchGrowth
        return (x: face.centre.x - w / 2, y: face.centre.y - h / 2, w: w, h: h)
    }

    /// Forgets the tracked face (the next frame searches everywhere).
    public mutating func reset() { lastFace = nil }

    /// The tracked face among `faces`: the nearest to the last centre when it overlaps the last
    /// box, else the largest.
    public func choose(_ faces: [DetectedFace]) -> DetectedFace? {
        guard !faces.isEmpty else { return nil }
        if let last = lastFace {
            let overlapping = faces.filter { Self.overlaps($0, last) }
            if let near = overlapping.min(by: { Self.distance($0.centre, last.centre) < Self.distance($1.centre, last.centre) }) {
                return near
            }
        }
        return faces.max { $0.area < $1.area }
    }

    static func overlaps(_ a: DetectedFace, _ b: DetectedFace) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    static func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
}
