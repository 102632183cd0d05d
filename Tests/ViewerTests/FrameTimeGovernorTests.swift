// The frame-time governor on a fake clock and a synthetic cost: it converges to the most splats
// that hold the target without oscillating, drops within a few frames when the machine slows,
// prefers budget over resolution, and returns to the governed budget the moment the eye moves.
import Testing
@testable import Viewer

@Suite struct FrameTimeGovernorTests {
    /// A machine whose frame costs `fixed + perSplat · splats` ms at full scale, times `load`;
    /// the fixed part (fill) scales with the pixels drawn. Frames are 1/60 s apart on the fake clock.
    struct SyntheticMachine {
        var fixed = 10.0, perSplat = 1e-4, load = 1.0
        /// Frame-to-frame noise: each frame's time is off by up to ± this fraction (a fixed pseudo-random sequence).
        var noise = 0.0
        private var state: UInt64 = 0x9E3779B97F4A7C15
        init(fixed: Double = 10, noise: Double = 0) { self.fixed = fixed; self.noise = noise }
        func ms(splats: Int, scale: Double) -> Double { load * (fixed * scale * scale + perSplat * Double(splats)) }
        /// One frame's measured time: `ms` with its noise.
        mutating func measure(splats: Int, scale: Double) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(state >> 11) / Double(1 << 53) * 2 - 1
            return ms(splats: splats, scale: scale) * (1 + noise * u)
        }
        /// Splats the view wants (nil: the whole capture): a budget binds while it is below them.
        var wants: Int?
        func binds(budget: Int, whole: Int) -> Bool { budget < (wants ?? whole) }
    }

    /// Runs `frames` frames; returns the budgets chosen.
    @discardableResult
    func run(_ g: FrameTimeGovernor, _ m: inout SyntheticMachine, frames: Int, still: Bool = false, ready: Bool = true,
             clock: inout Double) -> [Int] {
        var budgets: [Int] = []
        for _ in 0..<frames {
            let b = g.budget
            budgets.append(b)
            g.frameFinished(ms: m.measure(splats: b, scale: g.renderScale), budgetBinds: m.binds(budget: b, whole: g.settings.whole),
                            eyeStill: still, stillViewReady: ready, at: clock)
            clock += 1.0 / 60
        }
        return budgets
    }

    @Test func convergesToTheMostSplatsThatHoldTheTargetWithoutOscillating() {
        var m = SyntheticMachine(noise: 0.15)
        // Target 33.3 ms: 233k splats fit exactly; the governor should settle just under it.
        let g = FrameTimeGovernor(.init(targetMs: 1000.0 / 30, floor: 10_000, whole: 4_000_000, start: 50_000))
        var clock = 0.0
        run(g, &m, frames: 300, clock: &clock)
        let settled = g.budget
        #expect(m.ms(splats: settled, scale: 1) <= 1000.0 / 30)
        // Near the best: two rungs up would break the margin it keeps against the noise.
        #expect(m.ms(splats: Int(Double(settled) * 1.25 * 1.25 * 1.25), scale: 1) > 0.85 * 1000.0 / 30)
        #expect(g.renderScale == 1)
        // No flicker once settled: over the next 600 noisy frames the budget changes at most
        // twice (a probe up that the noise sends back is then barred for longer each time).
        let before = g.changes
        let later = run(g, &m, frames: 600, clock: &clock)
        #expect(g.changes - before <= 2)
        #expect(Set(later).count <= 2)
    }

    @Test func dropsWithinAFewFramesWhenTheMachineSlows() {
        var m = SyntheticMachine(noise: 0.1)
        let g = FrameTimeGovernor(.init(targetMs: 1000.0 / 30, floor: 10_000, whole: 4_000_000, start: 50_000))
        var clock = 0.0
        run(g, &m, frames: 300, clock: &clock)
        let settled = g.budget
        m.load = 2   // another program takes half the machine
        let after = run(g, &m, frames: 6, clock: &clock)
        #expect(after.last! < settled)
        #expect(m.ms(splats: g.budget, scale: g.renderScale) <= 1000.0 / 30)
        // And it comes back when the load goes.
        m.load = 1
        run(g, &m, frames: 600, clock: &clock)
        #expect(g.budget >= settled * 4 / 5)
    }

    @Test func scalesTheResolutionOnlyAtTheFloorAndRestoresItFirst() {
        var m = SyntheticMachine(fixed: 40)   // fill alone exceeds a 30 ms target
        let g = FrameTimeGovernor(.init(targetMs: 30, floor: 10_000, whole: 1_000_000, start: 50_000))
        var clock = 0.0
        run(g, &m, frames: 200, clock: &clock)
        #expect(g.governedBudget == 10_000)
        #expect(g.renderScale < 1)
        #expect(m.ms(splats: g.budget, scale: g.renderScale) <= 30)
        // Cheaper fill: the scale returns to 1 before the budget leaves the floor.
        m.fixed = 5
        var sawScaleRestoredAtFloor = false
        for _ in 0..<400 {
            if g.renderScale == 1 && g.governedBudget == 10_000 { sawScaleRestoredAtFloor = true }
            #expect(!(g.renderScale < 1 && g.governedBudget > 10_000))
            run(g, &m, frames: 1, clock: &clock)
        }
        #expect(sawScaleRestoredAtFloor)
        #expect(g.governedBudget > 10_000)
    }

    /// A 1M capture governed at 30 fps for 300 moving frames: the governor, its machine and clock.
    func governedWhileMoving() -> (FrameTimeGovernor, SyntheticMachine, clock: Double) {
        var m = SyntheticMachine()
        let g = FrameTimeGovernor(.init(targetMs: 1000.0 / 30, floor: 10_000, whole: 1_000_000, start: 50_000))
        var clock = 0.0
        run(g, &m, frames: 300, clock: &clock)
        return (g, m, clock)
    }

    @Test func aStillEyeRefinesToTheWholeCaptureAndMotionReturnsAtOnce() {
        var (g, m, clock) = governedWhileMoving()
        let governed = g.budget
        #expect(governed < 1_000_000)
        // Still: the whole capture within a second (frames at 60 Hz on the fake clock).
        let start = clock
        var wholeAt: Double?
        for _ in 0..<120 where wholeAt == nil {
            run(g, &m, frames: 1, still: true, clock: &clock)
            if g.drawsWhole { wholeAt = clock }
        }
        #expect(wholeAt != nil && wholeAt! - start <= 1)
        #expect(g.isRefining)
        // The first frame after the eye moves draws the governed budget again.
        run(g, &m, frames: 1, still: false, clock: &clock)
        #expect(!g.isRefining)
        #expect(g.budget == governed)
    }

    /// The levels a still eye wants are decoded ahead (the window): the governed frames go on
    /// until they are, and the whole capture comes on the first frame after.
    @Test func aStillEyeWaitsGovernedForItsLevelsThenRefinesAtOnce() {
        var (g, m, clock) = governedWhileMoving()
        let governed = g.budget
        let waiting = run(g, &m, frames: 60, still: true, ready: false, clock: &clock)
        #expect(!g.isRefining && g.awaitsStillView)
        #expect(waiting.allSatisfy { $0 == governed }, "\(Set(waiting))")
        run(g, &m, frames: 1, still: true, ready: true, clock: &clock)
        #expect(g.isRefining && g.drawsWhole && !g.awaitsStillView)
    }

    @Test func aBudgetThatDoesNotBindIsNotRaised() {
        let m = SyntheticMachine()
        let g = FrameTimeGovernor(.init(targetMs: 1000.0 / 30, floor: 10_000, whole: 4_000_000, start: 50_000))
        var clock = 0.0
        // The view wants only 30k splats: more budget would show nothing more.
        for _ in 0..<200 {
            g.frameFinished(ms: m.ms(splats: 30_000, scale: 1), budgetBinds: false, eyeStill: false, at: clock)
            clock += 1.0 / 60
        }
        #expect(g.budget == 50_000)
    }

    @Test func eyeStillnessToleratesJitterButNotAMove() {
        var s = EyeStillness()
        let anchored = s.isStill(SIMD3(0, 0, 0.6))          // the first sample anchors
        let jitter = s.isStill(SIMD3(0.0005, -0.0003, 0.6004))
        let moved = s.isStill(SIMD3(0.003, 0, 0.6))       // 3 mm: a move, the new anchor
        let settled = s.isStill(SIMD3(0.0031, 0, 0.6))
        #expect(!anchored && jitter && !moved && settled)
    }
}
