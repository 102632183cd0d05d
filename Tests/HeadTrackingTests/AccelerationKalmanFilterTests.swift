// The constant-acceleration Kalman filter against a plain 3×3 matrix implementation of the same
// equations, and against the constant-velocity filter on signals whose answer is known: a sway
// predicted across a webcam's latency, a stop, a noisy still head.
import Foundation
import HeadTracking
import RenderCore
import Testing

@Suite("Constant-acceleration Kalman filter")
struct AccelerationKalmanFilterTests {
    /// The textbook filter: x = F x, P = F P Fᵀ + q·Q₁ (q raised so an innovation beyond the gate
    /// lies on it, at most `gateBoost`·q); K = P Hᵀ / (H P Hᵀ + r); blended with a `KalmanFilter`
    /// fed the same samples by w = s²/(s² + v₀²), s² the largest v² lately (decaying by
    /// e^(−Δt/τ)).
    struct MatrixFilter {
        let f: AccelerationKalmanFilter   // only its parameters
        var steady: KalmanFilter
        var x = [0.0, 0.0, 0.0]
        var P = [[Double]](repeating: [0, 0, 0], count: 3)
        var last: Double?
        var samples: [Double] = []
        var recent = 0.0
        init(_ f: AccelerationKalmanFilter) { self.f = f; steady = f.steady }

        static func mul(_ A: [[Double]], _ B: [[Double]]) -> [[Double]] {
            (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0.0) { $0 + A[i][$1] * B[$1][j] } } }
        }
        static func t(_ A: [[Double]]) -> [[Double]] { (0..<3).map { i in (0..<3).map { j in A[j][i] } } }
        /// The median |second difference| of the last 31 over 0.6745·√6 (from 9 of them on).
        var measured: Double {
            guard samples.count >= 11 else { return 0 }
            var d: [Double] = []
            for k in max(2, samples.count - 31)..<samples.count {
                let second: Double = samples[k] - 2 * samples[k - 1] + samples[k - 2]
                d.append(abs(second))
            }
            return d.sorted()[d.count / 2] / (0.6745 * 6.0.squareRoot())
        }
        func weight() -> Double {
            let v0 = max(f.restSpeed, f.noiseSpeedRatio * measured)
            let s2 = max(x[1] * x[1], recent)
            return s2 / (s2 + v0 * v0)
        }
        mutating func filter(_ z: Double, at t: Double) -> Double {
            let base = steady.filter(z, at: t)
            samples.append(z)
            let sigma = max(f.measurementNoise, measured), r = sigma * sigma
            guard let t0 = last else {
                x = [z, 0, 0]; P = [[r, 0, 0], [0, 0.25, 0], [0, 0, 4]]; last = t
                return base + weight() * (x[0] - base)
            }
            let dt = t - t0
            let F = [[1, dt, dt * dt / 2], [0, 1, dt], [0, 0, 1]]
            let Q1 = [[pow(dt, 5) / 20, pow(dt, 4) / 8, pow(dt, 3) / 6],
                      [pow(dt, 4) / 8, pow(dt, 3) / 3, dt * dt / 2],
                      [pow(dt, 3) / 6, dt * dt / 2, dt]]
            let xp = (0..<3).map { i in (0..<3).reduce(0.0) { $0 + F[i][$1] * x[$1] } }
            let FPF = Self.mul(Self.mul(F, P), Self.t(F))
            let nu = z - xp[0]
            var q = f.jerkNoise
            if nu * nu > f.gate * f.gate * (FPF[0][0] + q * Q1[0][0] + r) {
                let needed = (nu / f.gate) * (nu / f.gate) - FPF[0][0] - r
                q = min(max(q, needed / Q1[0][0]), f.jerkNoise * f.gateBoost)
            }
            let Pp = (0..<3).map { i in (0..<3).map { j in FPF[i][j] + q * Q1[i][j] } }
            let s = Pp[0][0] + r
            let K = (0..<3).map { Pp[$0][0] / s }
            x = (0..<3).map { xp[$0] + K[$0] * nu }
            P = (0..<3).map { i in (0..<3).map { j in Pp[i][j] - K[i] * Pp[0][j] } }
            recent = max(x[1] * x[1], recent * exp(-dt / f.motionMemory))
            last = t
            return base + weight() * (x[0] - base)
        }
    }

    static func make() -> AccelerationKalmanFilter {
        guard case let .kalmanAcceleration(n, j, g) = FilterSpec.defaultAccelerationKalman else { fatalError("the default is kalman-ca") }
        var steady = KalmanFilter(measurementNoise: n, stillNoise: 1e-5, speedGain: 3, innovationGain: 1, maxLead: 0.1)
        steady.restTime = 0
        return AccelerationKalmanFilter(measurementNoise: n, jerkNoise: j, gate: g, steady: steady, maxLead: 0.1)
    }

    /// A constant-velocity filter as the default `kalman` spec's sideways axes.
    static func constantVelocity() -> KalmanFilter {
        guard case let .kalman(n, g, i) = FilterSpec.defaultKalman else { fatalError("kalman") }
        var f = KalmanFilter(measurementNoise: n, stillNoise: 1e-5, speedGain: g, innovationGain: i, maxLead: 0.1)
        f.restTime = 0
        return f
    }

    @Test func agreesWithTheMatrixFormulation() {
        var fast = Self.make()
        var ref = MatrixFilter(Self.make())
        var random = SeededRandom(seed: 21)
        var t = 0.0
        for i in 0..<600 {
            t += 1.0 / 30 + 0.004 * Double(random.uniform() - 0.5)     // uneven sample spacing
            // Still, a sway, then a 10 cm step: the gate opens at its start and stop.
            let truth = i < 150 ? 0.0 : i < 400 ? 0.08 * sin(Double(i - 150) / 30 * .pi) : (i < 460 ? 0.0 : 0.1)
            let z = truth + 0.0005 * Double(random.normal())
            let a = fast.filter(z, at: t), b = ref.filter(z, at: t)
            #expect(abs(a - b) < 1e-9, "sample \(i): \(a) vs \(b)")
            #expect(abs(fast.velocity - ref.x[1]) < 1e-6 && abs(fast.acceleration - ref.x[2]) < 1e-4)
        }
    }

    /// RMS error (metres) of the position predicted `lead` seconds past each 30 Hz sample of
    /// `truth` (plus σ `noise`), from `from` seconds on; and the worst excess past `stop`.
    static func predictionError(_ filter: (Double, Double) -> Double, _ predict: (Double) -> Double,
                                truth: (Double) -> Double, noise: Double, lead: Double, from: Double, until: Double) -> Double {
        var random = SeededRandom(seed: 5)
        var sum = 0.0, n = 0
        for i in 0..<Int(until * 30) {
            let t = Double(i) / 30
            _ = filter(truth(t) + noise * Double(random.normal()), t)
            if t >= from { let e = predict(t + lead) - truth(t + lead); sum += e * e; n += 1 }
        }
        return (sum / Double(n)).squareRoot()
    }

    @Test func aSwayIsPredictedAcrossAWebcamsLatencyWithLessErrorThanConstantVelocity() {
        // ±8 cm at 0.5 Hz, 65 ms from exposure to photon: constant velocity cuts each curve.
        func sway(_ t: Double) -> Double { t < 1 ? 0 : 0.08 * sin(Double.pi * (t - 1)) }
        var ca = Self.make(), cv = Self.constantVelocity()
        let a = Self.predictionError({ ca.filter($0, at: $1) }, { ca.position(at: $0) }, truth: sway, noise: 0.0002, lead: 0.065, from: 1.5, until: 9)
        let b = Self.predictionError({ cv.filter($0, at: $1) }, { cv.position(at: $0) }, truth: sway, noise: 0.0002, lead: 0.065, from: 1.5, until: 9)
        #expect(a < 0.75 * b, "constant acceleration \(a * 1000) mm, constant velocity \(b * 1000) mm")
    }

    @Test func aSwaysTurnsStayWithTheAccelerationModel() {
        // A webcam's σ = 0.5 mm hands a head slower than ~15 cm/s to the constant-velocity
        // filter, which trails each turn of the sway; remembering the speed keeps the turns
        // with the model that knows the head comes back.
        func sway(_ t: Double) -> Double { t < 1 ? 0 : 0.08 * sin(Double.pi * (t - 1)) }
        var remembering = Self.make(), forgetting = Self.make()
        forgetting.motionMemory = 0
        let a = Self.predictionError({ remembering.filter($0, at: $1) }, { remembering.position(at: $0) }, truth: sway, noise: 0.0005, lead: 0.065, from: 2, until: 9)
        let b = Self.predictionError({ forgetting.filter($0, at: $1) }, { forgetting.position(at: $0) }, truth: sway, noise: 0.0005, lead: 0.065, from: 2, until: 9)
        #expect(a < 0.9 * b, "with memory \(a * 1000) mm, without \(b * 1000) mm")
    }

    @Test func aStopIsNotOvershotMoreThanByConstantVelocity() {
        // 10 cm in 0.3 s (cosine ease), then still; the eye predicted 65 ms ahead.
        func step(_ t: Double) -> Double { 0.1 * (1 - cos(Double.pi * min(1, max(0, (t - 1) / 0.3)))) / 2 }
        func overshoot(_ filter: (Double, Double) -> Double, _ predict: (Double) -> Double) -> Double {
            var worst = 0.0
            for i in 0..<90 {
                let t = Double(i) / 30
                _ = filter(step(t), t)
                if t > 1.0 { worst = max(worst, predict(t + 0.065) - 0.1) }
            }
            return worst
        }
        var ca = Self.make(), cv = Self.constantVelocity()
        let a = overshoot({ ca.filter($0, at: $1) }, { ca.position(at: $0) })
        let b = overshoot({ cv.filter($0, at: $1) }, { cv.position(at: $0) })
        #expect(a < 0.010 && a <= b, "overshoot \(a * 1000) mm (constant velocity \(b * 1000) mm)")
    }

    @Test func aNoisyStillHeadIsHeldAsSteadyAsByConstantVelocity() {
        // A webcam's σ = 2 mm: the acceleration model alone would extrapolate the noise.
        func jitter(_ filter: (Double, Double) -> Double, _ predict: (Double) -> Double) -> Double {
            var random = SeededRandom(seed: 17)
            var out: [Double] = []
            for i in 0..<600 {
                let t = Double(i) / 30
                _ = filter(0.002 * Double(random.normal()), t)
                if i >= 60 { out.append(predict(t + 0.05)) }
            }
            return (out.map { $0 * $0 }.reduce(0, +) / Double(out.count)).squareRoot()
        }
        var ca = Self.make(), cv = Self.constantVelocity()
        var bare = Self.make()
        bare.noiseSpeedRatio = 0    // no hand-over: the acceleration model everywhere
        let a = jitter({ ca.filter($0, at: $1) }, { ca.position(at: $0) })
        let b = jitter({ cv.filter($0, at: $1) }, { cv.position(at: $0) })
        let c = jitter({ bare.filter($0, at: $1) }, { bare.position(at: $0) })
        #expect(a <= 1.05 * b, "still jitter \(a * 1000) mm, constant velocity \(b * 1000) mm")
        #expect(c > 1.5 * b, "without the hand-over \(c * 1000) mm: the test would not see it missing")
    }

    @Test func theDefaultSpecIsThisFilterAndReadsBack() throws {
        #expect(FilterSpec.default == .defaultAccelerationKalman)
        #expect(try FilterSpec(parsing: "kalman-ca") == .defaultAccelerationKalman)
        #expect(try FilterSpec(parsing: "kalman-ca:0.6,3,3").description == "kalman-ca:0.6,3,3")
        #expect(try FilterSpec(parsing: "KALMAN-CA: 1, 10, 2.5") == .kalmanAcceleration(noise: 0.001, jerk: 10, gate: 2.5))
        for bad in ["kalman-ca:0.6,3", "kalman-ca:0,3,3", "kalman-ca:0.6,-1,3", "kalman-ca:0.6,3,0", "kalman-ca:a,b,c"] {
            #expect(throws: HeadTrackingError.self, "\(bad)") { try FilterSpec(parsing: bad) }
        }
    }
}
