// The rig's head paths against what they promise: the sway is ±8 cm at 0.5 Hz and starts and
// stops from rest without a jump in speed.
import Foundation
import LatencyRig
import Testing

@Suite("Latency motion")
struct LatencyMotionTests {
    /// The eye's sideways speed at `t` (m/s), by central difference.
    static func speed(_ t: Double, _ h: Double = 1e-4) -> Double {
        let motion = LatencyMotion.sway
        return (motion.eye(at: t + h).x - motion.eye(at: t - h).x) / (2 * h)
    }

    @Test func theSwayReachesEightCentimetresAtAQuarterMetreASecond() {
        let times = stride(from: 0.0, to: LatencyMotion.sway.duration, by: 0.001)
        let reach = times.map { abs(LatencyMotion.sway.eye(at: $0).x) }.max() ?? 0
        let fastest = times.map { abs(Self.speed($0)) }.max() ?? 0
        #expect(abs(reach - 0.08) < 1e-4, "\(reach) m")
        #expect(abs(fastest - 0.08 * Double.pi) < 1e-3, "\(fastest) m/s")
    }

    @Test func theSwayStartsAndStopsWithoutAJumpInSpeed() {
        let start = LatencyMotion.lead, end = LatencyMotion.lead + 10
        // A sine begun at its centre would be at 0.25 m/s a millisecond in; the eased sway is
        // still slower than 1 mm/s there, and its speed changes by little from one millisecond
        // to the next anywhere along the path (no step).
        #expect(abs(Self.speed(start + 0.001)) < 1e-3 && abs(Self.speed(end - 0.001)) < 1e-3)
        var t = 0.0, largestChange = 0.0
        while t < LatencyMotion.sway.duration {
            largestChange = max(largestChange, abs(Self.speed(t + 0.001) - Self.speed(t)))
            t += 0.001
        }
        #expect(largestChange < 0.002, "\(largestChange) m/s in 1 ms")
        #expect(LatencyMotion.sway.isMoving(at: start + 5) && !LatencyMotion.sway.isMoving(at: end + 0.5))
    }
}
