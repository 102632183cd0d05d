import Foundation
import Testing
import TestSupport
import Workers

/// `WorkerPool`: every worker runs each job exactly once, and stopping or dropping the pool —
/// after it has been kept busy — ends every helper thread.
@Suite struct WorkerPoolTests {
    /// Each run calls the job once per worker index 0..<count, on as many distinct threads.
    @Test(arguments: [0, 1, 2, 3, 5])
    func everyWorkerRunsEachJobOnce(threads: Int) {
        let pool = WorkerPool<Tally>(threads: threads, name: ThreadNames.unique("wpa"))
        #expect(pool.count == max(1, threads))
        for round in 0..<50 {
            let tally = Tally(workers: pool.count)
            pool.run(tally) { t, worker in t.record(worker) }
            let (calls, threadCount) = tally.result()
            #expect(calls == [Int](repeating: 1, count: pool.count), "round \(round)")
            #expect(threadCount == pool.count, "round \(round): workers shared a thread")
        }
    }

    /// `run` returns only when every worker has finished: nothing a helper does is still
    /// pending after it (a pool that returned early would leave work undone).
    @Test func runWaitsForEveryHelper() {
        let pool = WorkerPool<Tally>(threads: 4, name: ThreadNames.unique("wpb"))
        for _ in 0..<200 {
            let tally = Tally(workers: pool.count)
            pool.run(tally) { t, worker in
                // Helpers do more than the caller, so the caller is usually first done.
                var x = 0
                for i in 0..<(worker == 0 ? 10 : 20_000) { x &+= i }
                t.record(worker, work: x)
            }
            #expect(tally.result().calls == [1, 1, 1, 1])
        }
    }

    /// After work, `stop` ends every helper's loop before it returns, and the threads exit.
    @Test func stopEndsHelpersAfterLoad() {
        let name = ThreadNames.unique("wpc")
        let pool = WorkerPool<Tally>(threads: 4, name: name)
        // The pool's own count, and the kernel's list naming them (under ThreadSanitizer a helper
        // has been seen to keep Foundation's name a while: at least one named is enough for the
        // check after `stop` to see a survivor).
        #expect(Wait.until { pool.runningHelpers == 3 && ThreadNames.live(prefix: name) >= 1 },
                "\(pool.runningHelpers) helpers of 3 run, \(ThreadNames.live(prefix: name)) named")
        for _ in 0..<100 {
            let tally = Tally(workers: pool.count)
            pool.run(tally) { t, worker in t.record(worker) }
        }
        #expect(pool.stop(), "a helper did not end")
        #expect(pool.runningHelpers == 0, "stop returned before its helpers ended")
        #expect(Wait.until { ThreadNames.live(prefix: name) == 0 }, "a helper thread outlived stop")
        #expect(pool.stop(), "a second stop")
    }

    /// Pools made, loaded and dropped again and again leave no thread behind: `deinit` stops
    /// and joins its helpers.
    @Test func droppedPoolsLeaveNoThreads() {
        let name = ThreadNames.unique("wpd")
        for round in 0..<20 {
            let pool = WorkerPool<Tally>(threads: 1 + round % 4, name: name)
            let tally = Tally(workers: pool.count)
            pool.run(tally) { t, worker in t.record(worker) }
            #expect(tally.result().calls.allSatisfy { $0 == 1 })
        }
        #expect(Wait.until { ThreadNames.live(prefix: name) == 0 }, "a dropped pool's helper is still alive")
    }
}

/// What a pool's job saw: calls per worker index and the threads they ran on.
final class Tally: Sendable {
    private let state: Locked<(calls: [Int], threads: Set<ObjectIdentifier>, work: Int)>

    init(workers: Int) { state = Locked(([Int](repeating: 0, count: workers), [], 0)) }

    func record(_ worker: Int, work: Int = 0) {
        let thread = ObjectIdentifier(Thread.current)
        state.withLock { s in
            s.calls[worker] += 1
            s.threads.insert(thread)
            s.work &+= work
        }
    }

    func result() -> (calls: [Int], threadCount: Int) { state.withLock { ($0.calls, $0.threads.count) } }
}
