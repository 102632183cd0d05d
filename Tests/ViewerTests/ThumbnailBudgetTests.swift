// The library thumbnails' budget (`ThumbnailBudget`) on a synthetic cost: it starts where the
// scene starts, settles on the budget that draws a thumbnail in its target time without
// oscillating, follows a machine that slows down, and stays within the ladder.
import Testing
@testable import Library

struct ThumbnailBudgetTests {
    /// A thumbnail's time (ms) for `splats` on a machine that pays `perSplat` ms a splat over a
    /// fixed 2 ms (fill, clear, the frame's setup).
    static func cost(_ splats: Int, perSplat: Double) -> Double { 2 + perSplat * Double(splats) }

    @Test func settlesOnTheBudgetThatDrawsInTheTargetTime() {
        var b = ThumbnailBudget(targetMs: 60)
        #expect(b.budget(floor: 5_000, whole: 4_000_000, start: 50_000) == 50_000, "nothing measured: the scene's start")
        var budgets: [Int] = []
        for _ in 0..<12 {
            let n = b.budget(floor: 5_000, whole: 4_000_000, start: 50_000)
            budgets.append(n)
            b.record(ms: Self.cost(n, perSplat: 0.0002), splats: n)
        }
        // The budget whose time is the target: 2 + 0.0002 n = 60.
        let settled = budgets.last!, ideal = 290_000
        #expect(abs(settled - ideal) < ideal / 50, "\(budgets)")
        // Up without overshooting the ideal (no oscillation): each step at or below it, rising.
        #expect(zip(budgets, budgets.dropFirst()).allSatisfy { $0 <= $1 } && budgets.allSatisfy { $0 <= ideal + ideal / 50 }, "\(budgets)")
        // The machine slows down (another program, half the speed): the next ones draw less.
        for _ in 0..<12 {
            let n = b.budget(floor: 5_000, whole: 4_000_000, start: 50_000)
            b.record(ms: Self.cost(n, perSplat: 0.0004), splats: n)
        }
        let slower = b.budget(floor: 5_000, whole: 4_000_000, start: 50_000)
        #expect(abs(slower - 145_000) < 145_000 / 50, "\(slower)")
    }

    @Test func staysWithinTheLadder() {
        var fast = ThumbnailBudget(targetMs: 60), slow = ThumbnailBudget(targetMs: 60)
        fast.record(ms: 1, splats: 1_000_000)
        slow.record(ms: 500, splats: 10_000)
        #expect(fast.budget(floor: 5_000, whole: 800_000, start: 50_000) == 800_000, "a fast machine draws the whole capture")
        #expect(slow.budget(floor: 5_000, whole: 800_000, start: 50_000) == 5_000, "a slow one the coarsest picture")
        var none = ThumbnailBudget()
        none.record(ms: .nan, splats: 100); none.record(ms: 10, splats: 0)
        #expect(none.msPerSplat == nil, "nothing learned from a frame that drew nothing or was not timed")
    }
}
