// WorkerPool — a fixed set of real threads that run one fork-join job at a time.
//
// The calling thread is worker 0; `threads − 1` background threads (`BackgroundThread`) sleep on
// a condition variable between jobs, so a frame's stages cost a wake-up each, not a thread
// start. A job is a context object plus a capture-free function value: handing it over
// allocates nothing (a non-escaping closure would need `withoutActuallyEscaping`, which
// allocates a verification box per call).
import Foundation

/// The number of cores the system reports (the default thread count of the renderers).
public enum CoreCount {
    public static var available: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// Fork-join over a fixed number of workers, shared by both renderers. Not re-entrant: one
/// `run` at a time. A job is called once per worker with the worker's index; jobs split their
/// items among workers themselves (statically or through an atomic counter).
public final class WorkerPool<Context: AnyObject>: @unchecked Sendable {
    /// Number of workers, including the calling thread.
    public let count: Int
    private let state: State
    private let helpers: [BackgroundThread]

    /// Starts `threads − 1` helper threads (at least one worker in total).
    public init(threads: Int) {
        count = max(1, threads)
        state = State(workers: count)
        helpers = (1..<max(1, count)).map { BackgroundThread(name: "splat-worker-\($0)") }
        for (i, helper) in helpers.enumerated() {
            let s = state, index = i + 1
            helper.start { s.workerStep(index: index) }
        }
    }

    /// Stops the helpers and joins them (they are asleep between jobs: this is immediate).
    deinit {
        state.stop()
        for h in helpers { h.stop() }
    }

    /// Runs `job(context, worker)` once on every worker (0 on the calling thread) and returns
    /// when all have finished. `context` is not retained; it must outlive the call.
    public func run(_ context: Context, _ job: @escaping (Context, Int) -> Void) {
        if count == 1 { job(context, 0); return }
        state.start(Unmanaged.passUnretained(context), job, helpers: count - 1)
        job(context, 0)
        state.waitForHelpers()
    }

    /// Shared between the pool and its threads (the threads must not keep the pool alive).
    private final class State: @unchecked Sendable {
        let cond = NSCondition()
        var context: Unmanaged<Context>?
        var job: ((Context, Int) -> Void)?
        var generation = 0
        var pending = 0
        var stopping = false

        func start(_ c: Unmanaged<Context>, _ j: @escaping (Context, Int) -> Void, helpers: Int) {
            cond.lock()
            context = c; job = j; pending = helpers; generation &+= 1
            cond.broadcast()
            cond.unlock()
        }

        func waitForHelpers() {
            cond.lock()
            while pending > 0 { cond.wait() }
            context = nil
            cond.unlock()
        }

        func stop() {
            cond.lock(); stopping = true; cond.broadcast(); cond.unlock()
        }

        /// The generation each worker last ran (index 1…), under the lock.
        private var seen: [Int]

        init(workers: Int) { seen = [Int](repeating: 0, count: workers) }

        /// One job on helper `index`: waits for the next generation; false once stopping.
        func workerStep(index: Int) -> Bool {
            cond.lock()
            let last = seen[index]
            while generation == last && !stopping { cond.wait() }
            if stopping { cond.unlock(); return false }
            seen[index] = generation
            let c = context, j = job
            cond.unlock()
            if let c, let j { j(c.takeUnretainedValue(), index) }
            cond.lock()
            pending -= 1
            if pending == 0 { cond.broadcast() }
            cond.unlock()
            return true
        }
    }
}
