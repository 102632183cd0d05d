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
public final class WorkerPool<Context: AnyObject> {
    /// Number of workers, including the calling thread.
    public let count: Int
    private let state: State
    private let helpers: [BackgroundThread]

    /// Starts `threads − 1` helper threads (at least one worker in total), named `name-1`,
    /// `name-2`… (Linux keeps the first 15 bytes of a thread's name).
    public init(threads: Int, name: String = "splat-worker") {
        count = max(1, threads)
        state = State(workers: count)
        helpers = (1..<max(1, count)).map { BackgroundThread(name: "\(name)-\($0)") }
        for (i, helper) in helpers.enumerated() {
            let s = state, index = i + 1
            helper.start { s.workerStep(index: index) }
        }
    }

    /// Stops the helpers and joins them (they are asleep between jobs: this is immediate).
    deinit { stop() }

    /// Stops the helpers and waits for each to end its loop; returns whether all have (true at
    /// once when they already had). No `run` may follow. `deinit` does this.
    @discardableResult
    public func stop() -> Bool {
        state.stop()
        return helpers.reduce(true) { $1.stop() && $0 }
    }

    /// Helper threads whose loop is still running (`count − 1` from `init` until `stop`, then 0).
    public var runningHelpers: Int { helpers.reduce(0) { $0 + ($1.isRunning ? 1 : 0) } }

    /// Runs `job(context, worker)` once on every worker (0 on the calling thread) and returns
    /// when all have finished. `context` is not retained; it must outlive the call.
    public func run(_ context: Context, _ job: @escaping (Context, Int) -> Void) {
        if count == 1 { job(context, 0); return }
        state.start(ForkJoinJob(context: Unmanaged.passUnretained(context), job: job), helpers: count - 1)
        job(context, 0)
        state.waitForHelpers()
    }

    /// What the helpers share with `run`: the current job, its generation, and how many helpers
    /// have not finished it. The threads hold this, not the pool (they must not keep it alive).
    private final class State: Sendable {
        struct Shared {
            var job: ForkJoinJob<Context>?
            var generation = 0
            var pending = 0
            var stopping = false
            /// The generation each worker last ran (index 1…).
            var seen: [Int]
        }
        let shared: Locked<Shared>

        init(workers: Int) { shared = Locked(Shared(seen: [Int](repeating: 0, count: workers))) }

        /// Hands `job` to `helpers` helpers and wakes them.
        func start(_ job: ForkJoinJob<Context>, helpers: Int) {
            shared.update { s in
                precondition(!s.stopping, "WorkerPool.run after stop")
                s.job = job; s.pending = helpers; s.generation &+= 1
            }
        }

        /// Returns once every helper has finished the current job (which is then dropped).
        func waitForHelpers() {
            shared.wait(until: { $0.pending == 0 }) { s, _ in s.job = nil }
        }

        func stop() { shared.update { $0.stopping = true } }

        /// One job on helper `index`: waits for the next generation; false once stopping.
        func workerStep(index: Int) -> Bool {
            let (job, stopping) = shared.wait(until: { $0.generation != $0.seen[index] || $0.stopping }) { s, _ -> (ForkJoinJob<Context>?, Bool) in
                if s.stopping { return (nil, true) }
                s.seen[index] = s.generation
                return (s.job, false)
            }
            if stopping { return false }
            guard let job else { return true }
            job.call(worker: index)
            let last = shared.withLock { s -> Bool in s.pending -= 1; return s.pending == 0 }
            if last { shared.broadcast() }
            return true
        }
    }
}

/// One `WorkerPool.run`'s job as the helper threads see it: the caller's context (not retained)
/// and the function to call with it and a worker index.
// Audited: helpers call it only between `State.start` and `waitForHelpers`, while `run`'s caller keeps `context` alive; the job splits its work by worker index.
struct ForkJoinJob<Context: AnyObject>: @unchecked Sendable {
    let context: Unmanaged<Context>
    let job: (Context, Int) -> Void

    /// Calls the job on worker `index`.
    @inline(__always)
    func call(worker index: Int) { job(context.takeUnretainedValue(), index) }
}
