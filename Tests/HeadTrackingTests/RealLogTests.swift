// RealLogTests — the real head trajectory (mocap ground truth): parsing, filters, jitter and lag.
import Foundation
import Testing
import TestSupport
@testable import HeadTracking

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct RealLogTests {
    private static let path = TestData.path("headtracks/traj1_tool1_gt.tum.txt")

    /// The first 60 s, recentred: enough motion and rest, quick in debug builds.
    private func clip() throws -> PoseLog {
        var log = try PoseLogReader().read(path: Self.path).recentred()
        log.samples = Array(log.samples.prefix(1800))
        return log
    }

    @Test func parsesTheWholeLog() throws {
        let log = try PoseLogReader().read(path: Self.path)
        #expect(log.format == .tum)
        #expect(log.samples.count == 4731)
        #expect(abs(log.meanRate - 30) < 0.1)
        #expect(log.skippedLines == 0)
    }

    @Test func filtersCutJitterAndLagMatchesTheory() throws {
        let clean = try clip()
        let noisy = clean.withNoise(sigma: 0.002, seed: 7)
        let ema = TrackingAnalysis.report(raw: noisy, filtered: PositionFilter.apply(.defaultEMA, to: noisy), reference: clean)
        let one = TrackingAnalysis.report(raw: noisy, filtered: PositionFilter.apply(.defaultOneEuro, to: noisy), reference: clean)
        #expect(ema.stillWindows > 5)
        let rawJ = try #require(ema.rawJitter), emaJ = try #require(ema.filteredJitter), oneJ = try #require(one.filteredJitter)
        // 2 mm per axis ≈ 3.2 mm 3-D RMS; EMA α = 0.3 keeps ≈ √(α/(2−α)) ≈ 0.42 of white noise.
        #expect(rawJ > 2.8e-3 && rawJ < 3.8e-3)
        #expect(emaJ < 0.5 * rawJ)
        #expect(oneJ < 0.6 * emaJ)
        // EMA lag at low frequencies: (1 − α)/α samples = 78 ms.
        let emaLag = try #require(ema.lag), oneLag = try #require(one.lag)
        #expect(abs(emaLag - 0.078) < 0.015)
        #expect(oneLag < emaLag)
    }

    @Test func predictionReducesLag() throws {
        let clean = try clip()
        let plain = PositionFilter.apply(.defaultEMA, to: clean)
        let predicted = PositionFilter.apply(.defaultEMA, predictHorizon: 0.05, to: clean)
        let a = try #require(TrackingAnalysis.lag(raw: clean, filtered: plain))
        let b = try #require(TrackingAnalysis.lag(raw: clean, filtered: predicted))
        #expect(b < a - 0.02)
    }

    @Test func replayOfTheRealLogIsContinuous() throws {
        let log = try clip()
        let replay = ReplaySource(log: log)
        let tracker = HeadTracker()
        var prev: Vec3d? = nil
        for k in 0..<(60 * 20) {   // 20 s at 60 fps
            let t = Double(k) / 60
            let pose = tracker.update(sample: replay.sample(at: t), at: t)
            if let p = prev { #expect(length(pose.position - p) < 0.05) }
            prev = pose.position
        }
        #expect(tracker.state == .tracking)
    }
}
