import Foundation
import Testing
import TestSupport
import Workers

/// `BackgroundThread`: `stop` asks the loop to end, wakes a `pause`, and returns only once the
/// loop has ended; a long body sees `isStopping`; the thread then exits.
@Suite struct BackgroundThreadTests {
    /// A loop asleep in a long `pause` is woken by `stop`, which returns once the body is out.
    @Test func stopWakesAPauseAndJoins() {
        let name = ThreadNames.unique("bta")
        let thread = BackgroundThread(name: name)
        let seen = Locked((calls: 0, inBody: false, work: 0))
        let started = thread.start(loop: {
            seen.update { $0.calls += 1; $0.inBody = true }
            thread.pause(3600)                      // only `stop` (or `wake`) ends this
            // Work after the wake-up, so a `stop` that returned without waiting would be seen.
            var x = 0
            for i in 0..<2_000_000 { x &+= i &* i }
            seen.update { $0.inBody = false; $0.work &+= x }
        })
        #expect(started)
        #expect(seen.wait(until: { $0.calls >= 1 }, timeout: 30) { _, ok in ok })
        #expect(thread.isRunning)
        #expect(thread.stop(timeout: 30), "stop did not see the loop end")
        #expect(!thread.isRunning)
        #expect(!seen.withLock { $0.inBody }, "stop returned while the body still ran")
        let calls = seen.withLock { $0.calls }
        #expect(Wait.until { ThreadNames.live(prefix: name) == 0 }, "the thread outlived stop")
        #expect(seen.withLock { $0.calls } == calls, "the body ran after stop")
    }

    /// A body that loops on its own sees `isStopping` and returns; `stop` waits for it.
    @Test func longBodyObservesStopping() {
        let thread = BackgroundThread(name: ThreadNames.unique("btb"))
        let progress = Locked((spins: 0, sawStop: false, returned: false))
        thread.start {
            while !thread.isStopping { progress.update { $0.spins += 1 } }
            progress.update { $0.sawStop = true; $0.returned = true }
            return true
        }
        #expect(progress.wait(until: { $0.spins > 100 }, timeout: 30) { _, ok in ok })
        #expect(thread.stop(timeout: 30))
        let end = progress.withLock { $0 }
        #expect(end.sawStop && end.returned, "stop returned before the body saw it")
    }

    /// `wake` ends a pause early without stopping the loop.
    @Test func wakeEndsAPauseOnly() {
        let thread = BackgroundThread(name: ThreadNames.unique("btc"))
        let calls = Locked(0)
        thread.start(loop: {
            calls.update { $0 += 1 }
            thread.pause(3600)
        })
        for n in 2...6 {
            // A wake that comes before the body is inside `pause` is not kept: wake until it moves.
            #expect(Wait.until { thread.wake(); return calls.withLock { $0 } >= n }, "pause \(n - 1) was not woken")
        }
        #expect(thread.isRunning)
        #expect(thread.stop(timeout: 30))
    }

    /// One-shot work ends by itself; the thread can then be started again, and `start` refuses
    /// while a loop still runs.
    @Test func oneShotEndsAndRestarts() {
        let thread = BackgroundThread(name: ThreadNames.unique("btd"))
        let runs = Locked(0)
        let gate = Locked(false)
        let started = thread.start {
            runs.update { $0 += 1 }
            gate.wait(until: { $0 }) { _, _ in }
            return false
        }
        #expect(started)
        #expect(runs.wait(until: { $0 == 1 }, timeout: 30) { _, ok in ok })
        let second = thread.start { false }
        #expect(!second, "a second loop started while the first ran")
        gate.update { $0 = true }
        #expect(Wait.until { !thread.isRunning }, "one-shot work did not end its loop")
        let restarted = thread.start { runs.update { $0 += 1 }; return false }
        #expect(restarted)
        #expect(runs.wait(until: { $0 == 2 }, timeout: 30) { _, ok in ok })
        #expect(thread.stop(timeout: 30))
        #expect(runs.withLock { $0 } == 2)
    }
}
