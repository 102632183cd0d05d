// HeadMotion — the scripted head path of the accuracy run: still, turning, nodding, moving.
import Foundation

/// One frame of the path: which part it belongs to and where the head is.
public struct HeadMotionFrame: Sendable {
    public var segment: HeadMotion.Segment
    public var time: Double
    public var placement: HeadPlacement
}

/// The path, at `fps` frames a second. Every part starts and ends facing the screen with the
/// eyes near (0, `eyeHeight`, 0.55) m, so the path is continuous.
public enum HeadMotion {
    public enum Segment: String, Sendable, CaseIterable {
        /// Still, facing the screen (2 s): the distance calibration and the jitter, both over the
        /// frames after the first `TrackerAccuracy.settleFrames` (the landmarker's crop settles
        /// over its first few frames on a new face).
        case still
        /// Turning ±35° at 0.53 m (one full sweep, 3 s).
        case turn
        /// Nodding ±20° (2 s).
        case nod
        /// Turned 15°, moving ±10 cm sideways and 0.45–0.75 m away (4 s).
        case move
    }

    /// The eyes' height (metres, screen space): 5 cm below the rig camera (2 cm above a 34 cm
    /// screen's top edge), where a viewer's eyes are when they look at the top of the picture.
    public static let eyeHeight = 0.14

    /// The head origin that puts the eye midpoint at `eyes` when facing the screen.
    static func origin(eyes: SIMD3<Double>) -> SIMD3<Double> {
        eyes - (HeadPlacement(position: .zero).eyeMidpoint)
    }

    /// The frames of the whole path.
    public static func frames(fps: Double = 30, stillFrames: Int = 60) -> [HeadMotionFrame] {
        var out: [HeadMotionFrame] = []
        var t = 0.0
        let deg = Double.pi / 180
        func add(_ s: Segment, _ n: Int, _ place: (Double) -> HeadPlacement) {
            for i in 0..<n {
                out.append(HeadMotionFrame(segment: s, time: t, placement: place(Double(i) / Double(n))))
                t += 1 / fps
            }
        }
        add(.still, stillFrames) { _ in HeadPlacement(position: origin(eyes: SIMD3(0, eyeHeight, 0.55))) }
        add(.turn, Int(3 * fps)) { u in
            let z = 0.55 - 0.02 * sin(Double.pi * u)
            return HeadPlacement(position: origin(eyes: SIMD3(0, eyeHeight, z)), yaw: 35 * deg * sin(2 * Double.pi * u))
        }
        add(.nod, Int(2 * fps)) { u in
            HeadPlacement(position: origin(eyes: SIMD3(0, eyeHeight, 0.55)), pitch: 20 * deg * sin(2 * Double.pi * u))
        }
        add(.move, Int(4 * fps)) { u in
            let s = sin(2 * Double.pi * u)
            let z = 0.55 + (s > 0 ? 0.2 : 0.1) * s
            let x = 0.10 * sin(4 * Double.pi * u)
            let yaw = 15 * deg * sin(Double.pi * u)   // turned 15° through the middle, facing at both ends
            return HeadPlacement(position: origin(eyes: SIMD3(x, eyeHeight, z)), yaw: yaw)
        }
        return out
    }
}
