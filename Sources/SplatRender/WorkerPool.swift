// WorkerPool — a fixed set of real threads that run one fork-join job at a time.
//
// The calling thread is worker 0; `threads − 1` Foundation threads (pthreads) sleep on a
// condition variable between jobs, so a frame's stages cost a wake-up each, not a thread
// start, and nothing is allocated per job.
import Foundation

/// Fork-join over a fixed number of workers. Not re-entrant: one `run` at a time.
final class WorkerPool: @unchecked Sendable {
    /// Number of workers, including the calling thread.
    let count: Int
    private let state = State()

    /// Starts `threads − 1` helper threads (at least one worker in total).
    init(threads: Int) {
        count = max(1, threads)
        for w in 1..<max(1, count) {
            let s = state
            let t = Thread { s.workerLoop(index: w) }
            t.name = "splat-worker-\(w)"
            t.start()
        }
    }

    deinit { state.stop() }

    /// Runs `body(worker)` once on every worker (0 on the calling thread) and returns when
    /// all have finished.
    func run(_ body: (Int) -> Void) {
        if count == 1 { body(0); return }
        withoutActuallyEscaping(body) { job in
            state.start(job, helpers: count - 1)
            job(0)
            state.waitForHelpers()
        }
    }

    /// Shared between the pool and its threads (the threads must not keep the pool alive).
    private final class State: @unchecked Sendable {
        let cond = NSCondition()
        var job: ((Int) -> Void)?
        var generation = 0
        var pending = 0
        var stopping = false

        func start(_ j: @escaping (Int) -> Void, helpers: Int) {
            cond.lock()
            job = j; pending = helpers; generation &+= 1
            cond.broadcast()
            cond.unlock()
        }

        func waitForHelpers() {
            cond.lock()
            while pending > 0 { cond.wait() }
            job = nil
            cond.unlock()
        }

        func stop() {
            cond.lock(); stopping = true; cond.broadcast(); cond.unlock()
        }

        func workerLoop(index: Int) {
            var seen = 0
            while true {
                cond.lock()
                while generation == seen && !stopping { cond.wait() }
                if stopping { cond.unlock(); return }
                seen = generation
                var j = job
                cond.unlock()
                j?(index)
                j = nil  // drop the reference before reporting: `run`'s closure must not escape
                cond.lock()
                pending -= 1
                if pending == 0 { cond.broadcast() }
                cond.unlock()
            }
        }
    }
}
