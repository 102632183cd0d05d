// The rig's scoring on frames whose answer is known: a track that trails the true path by a
// known delay, one that leads it, an overshoot, and a still head with known noise.
import Foundation
import LatencyRig
import Testing

@Suite("Latency analysis")
struct LatencyAnalysisTests {
    /// Frames presented every 10 ms over `motion`, each showing the true eye `shift` seconds
    /// earlier (plus `bias` and `noise(i)`).
    static func frames(_ motion: LatencyMotion, shift: Double, bias: SIMD3<Double> = .zero,
                       noise: (Int) -> SIMD3<Double> = { _ in .zero }) -> [PresentedFrame] {
        stride(from: 0.0, to: motion.duration, by: 0.01).enumerated().map { i, t in
            PresentedFrame(frameStart: t - 0.008, present: t, eye: motion.eye(at: t - shift) + bias + noise(i),
                           exposure: t - 0.06, published: t - 0.02)
        }
    }

    @Test func aTrackThatTrailsByThirtyMillisecondsReadsThirty() {
        let f = LatencyAnalysis.analyse(Self.frames(.sway, shift: 0.03, bias: SIMD3(0.004, -0.002, 0.01)), motion: .sway)
        #expect(abs(f.lagMs - 30) <= 0.5, "\(f.lagMs) ms")
        // Sway peaks at 0.25 m/s: 30 ms behind is up to 7.5 mm, RMS 5.3 mm over whole cycles
        // (5.16 mm with the eased half cycles either side); the bias is calibrated out.
        #expect(abs(f.rmsMm - 5.16) < 0.1, "\(f.rmsMm) mm")
        #expect(f.p95Mm <= 7.6 && f.p95Mm > 6.5)
        #expect(abs(f.bias.x - 0.004) < 1e-6 && abs(f.bias.z - 0.01) < 1e-6)
        #expect(abs(f.exposureToPublishedMs - 40) < 0.01 && abs(f.publishedToStartMs - 12) < 0.01)
        #expect(abs(f.startToPresentMs - 8) < 0.01 && abs(f.motionToPhotonMs - 60) < 0.01)
        #expect(f.overshootMm == nil)
    }

    @Test func aPredictionThatLeadsReadsNegative() {
        let f = LatencyAnalysis.analyse(Self.frames(.nod, shift: -0.012), motion: .nod)
        #expect(abs(f.lagMs + 12) <= 0.5, "\(f.lagMs) ms")
        let exact = LatencyAnalysis.analyse(Self.frames(.step, shift: 0), motion: .step)
        #expect(abs(exact.lagMs) <= 0.5 && exact.rmsMm < 1e-9 && exact.overshootMm == 0)
    }

    @Test func anOvershootPastTheStopIsMeasuredAlongTheMove() {
        let motion = LatencyMotion.step
        let stops = motion.stops
        // 6 mm past each stop for 100 ms, in the direction of the move.
        let frames = Self.frames(motion, shift: 0).map { f -> PresentedFrame in
            var g = f
            for s in stops where f.present >= s.time && f.present < s.time + 0.1 { g.eye += 0.006 * s.direction }
            return g
        }
        let f = LatencyAnalysis.analyse(frames, motion: motion)
        #expect(abs((f.overshootMm ?? 0) - 6) < 1e-6, "\(f.overshootMm ?? -1) mm")
    }

    @Test func stillJitterIsTheRMSAboutTheMean() {
        // ±0.5 mm alternating in x: RMS 0.5 mm.
        let f = LatencyAnalysis.analyse(Self.frames(.sway, shift: 0) { SIMD3(($0 % 2 == 0 ? 1 : -1) * 0.0005, 0, 0) }, motion: .sway)
        #expect(abs(f.jitterMm - 0.5) < 0.01, "\(f.jitterMm) mm")
    }
}
