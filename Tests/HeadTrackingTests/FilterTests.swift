// FilterTests — EMA, One Euro and prediction against their formulas on synthetic signals.
import Foundation
import Testing
@testable import HeadTracking

@Suite struct FilterTests {
    @Test func emaAt30HzIsTheTextbookFormula() {
        var f = EMAFilter(alpha30: 0.3)
        #expect(abs(f.alpha(dt: 1.0 / 30) - 0.3) < 1e-12)
        var expected = 0.0
        for k in 0..<60 {
            let x = sin(Double(k) * 0.3) + (k % 7 == 0 ? 0.5 : 0)
            let t = Double(k) / 30
            let y = f.filter(Vec3d(x, -x, 2 * x), at: t)
            expected = k == 0 ? x : 0.3 * x + 0.7 * expected
            #expect(abs(y.x - expected) < 1e-12)
            #expect(abs(y.y + expected) < 1e-12)
            #expect(abs(y.z - 2 * expected) < 1e-12)
        }
    }

    @Test func emaIsRateIndependent() {
        // A step response after 0.5 s is the same whether sampled at 30, 60 or 144 Hz.
        func step(rate: Double) -> Double {
            var f = EMAFilter(alpha30: 0.3)
            _ = f.filter(.zero, at: 0)
            var y = Vec3d.zero
            let n = Int(rate * 0.5)
            for k in 1...n { y = f.filter(Vec3d(1, 1, 1), at: Double(k) / rate) }
            return y.x
        }
        let a = step(rate: 30), b = step(rate: 60), c = step(rate: 144)
        #expect(abs(a - (1 - pow(0.7, 15))) < 1e-9)
        #expect(abs(a - b) < 1e-9)
        #expect(abs(a - c) < 1e-9)
    }

    @Test func emaIgnoresRepeatedTimestampsAndAlphaOneIsIdentity() {
        var f = EMAFilter(alpha30: 0.3)
        _ = f.filter(Vec3d(1, 1, 1), at: 1)
        #expect(f.filter(Vec3d(5, 5, 5), at: 1) == Vec3d(1, 1, 1))
        var g = EMAFilter(alpha30: 1)
        _ = g.filter(.zero, at: 0)
        #expect(g.filter(Vec3d(3, 2, 1), at: 0.01) == Vec3d(3, 2, 1))
    }

    /// The reference algorithm transcribed independently from the paper's formulas (with the
    /// reference code's choices: derivative against the previous filtered value, frequency from timestamps).
    private func referenceOneEuro(_ xs: [Double], _ ts: [Double], mincutoff: Double, beta: Double, dcutoff: Double) -> [Double] {
        var freq = 30.0
        var xhat: Double? = nil, dxhat: Double? = nil, last: Double? = nil
        var out: [Double] = []
        func alpha(_ fc: Double) -> Double { 1 / (1 + (1 / (2 * .pi * fc)) / (1 / freq)) }
        for (x, t) in zip(xs, ts) {
            if let l = last, t > l { freq = 1 / (t - l) }
            last = t
            let dx = xhat.map { (x - $0) * freq } ?? 0
            let ad = alpha(dcutoff)
            let e = dxhat.map { ad * dx + (1 - ad) * $0 } ?? dx
            dxhat = e
            let a = alpha(mincutoff + beta * abs(e))
            let y = xhat.map { a * x + (1 - a) * $0 } ?? x
            xhat = y
            out.append(y)
        }
        return out
    }

    @Test(arguments: [(1.0, 0.0, 1.0), (0.5, 0.007, 1.0), (2.0, 10.0, 3.0)])
    func oneEuroMatchesTheFormulas(params: (Double, Double, Double)) {
        var ts: [Double] = [], xs: [Double] = []
        var t = 0.0
        for k in 0..<300 {
            t += k % 10 == 3 ? 0.05 : 1.0 / 60   // irregular sampling
            ts.append(t)
            xs.append(0.1 * sin(2 * t) + (k > 150 ? 0.2 : 0) + 0.001 * sin(Double(k * 37)))
        }
        let ref = referenceOneEuro(xs, ts, mincutoff: params.0, beta: params.1, dcutoff: params.2)
        var f = OneEuroFilter(minCutoff: params.0, beta: params.1, dCutoff: params.2)
        for k in xs.indices {
            let y = f.filter(xs[k], at: ts[k])
            #expect(abs(y - ref[k]) < 1e-12, "sample \(k)")
        }
    }

    @Test func oneEuroAlphaFormula() {
        let f = OneEuroFilter(minCutoff: 1, beta: 0, dCutoff: 1, frequency: 30)
        let tau = 1 / (2 * Double.pi), te = 1.0 / 30
        #expect(abs(f.alpha(cutoff: 1) - 1 / (1 + tau / te)) < 1e-15)
    }

    @Test func oneEuroBetaReducesLagOnARamp() {
        func lagAfterRamp(beta: Double) -> Double {
            var f = OneEuroFilter(minCutoff: 1, beta: beta, dCutoff: 1)
            var y = 0.0
            for k in 0..<60 { y = f.filter(0.3 * Double(k) / 30, at: Double(k) / 30) }
            return 0.3 * 59 / 30 - y
        }
        #expect(lagAfterRamp(beta: 5) < lagAfterRamp(beta: 0) * 0.6)
    }

    @Test func specParsing() throws {
        #expect(try FilterSpec(parsing: "none") == .none)
        #expect(try FilterSpec(parsing: "ema") == .ema(alpha: 0.3))
        #expect(try FilterSpec(parsing: "EMA:0.5") == .ema(alpha: 0.5))
        #expect(try FilterSpec(parsing: "oneeuro") == FilterSpec.defaultOneEuro)
        #expect(try FilterSpec(parsing: "oneeuro:0.8, 0.5, 1.2") == .oneEuro(minCutoff: 0.8, beta: 0.5, dCutoff: 1.2))
        for bad in ["", "ema:0", "ema:1.5", "ema:x", "oneeuro:1,2", "oneeuro:0,0,1", "oneeuro:1,-1,1", "particle", "kalman:0,3", "kalman:1", "none:1", "ema:nan"] {
            #expect(throws: HeadTrackingError.self, "\(bad)") { try FilterSpec(parsing: bad) }
        }
        let spec = FilterSpec.oneEuro(minCutoff: 0.8, beta: 0.5, dCutoff: 1.2)
        #expect(try FilterSpec(parsing: spec.description) == spec)
        #expect(try FilterSpec(parsing: "kalman") == FilterSpec.defaultKalman)
        #expect(try FilterSpec(parsing: "kalman:2,5") == .kalman(noise: 0.002, speedGain: 5))
        #expect(try FilterSpec(parsing: FilterSpec.kalman(noise: 0.0015, speedGain: 4).description) == .kalman(noise: 0.0015, speedGain: 4))
    }

    /// A Kalman-filtered tracker predicts by the filter's velocity to the frame's present time:
    /// on a steady 0.2 m/s move sampled at 30 Hz, a frame at the sample's time + 40 ms present
    /// lead shows where the head is then. Without prediction it shows the last sample's place.
    @Test func aKalmanTrackerPredictsToThePresentTime() {
        var settings = HeadTrackerSettings()
        settings.filter = .kalman(noise: 0.001, speedGain: 3)
        settings.predictionHorizon = 0
        let predicting = HeadTracker(settings: settings)
        predicting.presentLead = 0.04
        settings.predictionHorizon = nil
        let plain = HeadTracker(settings: settings)
        var a = HeadPose(time: 0, position: .zero, state: .lost), b = a
        for k in 0..<90 {
            let t = Double(k) / 30
            let sample = PoseSample(timestamp: t, position: Vec3d(0.2 * t, 0, 0.6), confidence: 1, publishTime: t)
            a = predicting.update(sample: sample, at: t)
            b = plain.update(sample: sample, at: t)
        }
        let t = 89.0 / 30
        #expect(abs(a.position.x - 0.2 * (t + 0.04)) < 0.0005, "predicted \(a.position.x) vs \(0.2 * (t + 0.04))")
        #expect(abs(b.position.x - 0.2 * t) < 0.0005)
        #expect(a.sampleTime == t && a.samplePublishTime == t)
    }

    @Test func predictionLeadsOnAConstantVelocity() {
        // On x = v·t, DESP with horizon h converges to v·(t + h).
        var p = DoubleExponentialPredictor(horizon: 0.05)
        var y = Vec3d.zero
        var t = 0.0
        for k in 0..<200 { t = Double(k) / 30; y = p.predict(Vec3d(0.2 * t, 0, 0.6), at: t) }
        #expect(abs(y.x - 0.2 * (t + 0.05)) < 1e-6)
        #expect(abs(y.z - 0.6) < 1e-9)
    }
}

@Suite struct PresentTimePredictionTests {
    /// Constant velocity: with prediction on, the pose is where the head will be when the frame
    /// is seen — frame time + the present lead + the extra horizon — not a fixed offset after the sample.
    @Test func predictionAimsAtThePresentTime() {
        var settings = HeadTrackerSettings()
        settings.filter = FilterSpec.none
        settings.predictionHorizon = 0.01
        let tracker = HeadTracker(settings: settings)
        tracker.presentLead = 0.03
        let v = 0.2   // m/s
        var pose = tracker.update(sample: nil, at: 0)
        for k in 0..<120 {
            let t = Double(k) / 30
            pose = tracker.update(sample: PoseSample(timestamp: t, position: Vec3d(v * t, 0, 0.6)), at: t + 0.015)
        }
        let last = 119.0 / 30, frame = last + 0.015
        #expect(abs(pose.position.x - v * (frame + 0.03 + 0.01)) < 0.002, "\(pose.position.x)")
        // Without prediction the pose is the (unfiltered) sample.
        let plain = HeadTracker(settings: { var s = HeadTrackerSettings(); s.filter = FilterSpec.none; return s }())
        var p = plain.update(sample: nil, at: 0)
        for k in 0..<120 {
            let t = Double(k) / 30
            p = plain.update(sample: PoseSample(timestamp: t, position: Vec3d(v * t, 0, 0.6)), at: t + 0.015)
        }
        #expect(abs(p.position.x - v * last) < 1e-9)
        _ = frame
    }
}
