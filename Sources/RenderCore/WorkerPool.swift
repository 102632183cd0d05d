import Foundation
import Synchronization

/// A fixed pool of worker threads that runs "parallel for" loops.
///
/// `run(count:_:)` hands indices 0..<count to the workers and the calling thread through an
/// atomic counter (dynamic load balancing) and returns when all are done. Threads are
/// created once and sleep on a condition variable between loops; nothing is allocated per
/// loop. Loops must not be nested, and one caller at a time may use a pool.
public final class WorkerPool: @unchecked Sendable {
    /// Total threads taking part in a loop, including the caller.
    public let threadCount: Int
    private let shared = Shared()

    /// The number of cores the system reports.
    public static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Creates a pool with `threads` participants (the caller plus `threads − 1` workers).
    public init(threads: Int = WorkerPool.coreCount) {
        threadCount = max(1, threads)
        for i in 1..<max(1, threadCount) {
            let s = shared
            let t = Thread { s.workerLoop() }
            t.name = "splatframe-worker-\(i)"
            t.start()
        }
    }

    deinit { shared.shutDown() }

    /// Calls `body(i)` for every i in 0..<count, spread over the pool; returns when all calls have finished.
    public func run(count: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        if threadCount == 1 || count == 1 {
            for i in 0..<count { body(i) }
            return
        }
        withoutActuallyEscaping(body) { escaping in
            shared.run(count: count, workers: threadCount - 1, escaping)
        }
    }

    /// State shared with the worker threads (kept alive by them until shutdown).
    private final class Shared: @unchecked Sendable {
        let lock = NSCondition()
        var generation = 0
        var busyWorkers = 0
        var shuttingDown = false
        var body: ((Int) -> Void)?
        var itemCount = 0
        let next = Atomic<Int>(0)

        func run(count: Int, workers: Int, _ body: @escaping (Int) -> Void) {
            lock.lock()
            self.body = body
            itemCount = count
            next.store(0, ordering: .relaxed)
            busyWorkers = workers
            generation &+= 1
            lock.broadcast()
            lock.unlock()

            drain(body, count: count)

            lock.lock()
            while busyWorkers > 0 { lock.wait() }
            self.body = nil
            lock.unlock()
        }

        func drain(_ body: (Int) -> Void, count: Int) {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if i >= count { break }
                body(i)
            }
        }

        func workerLoop() {
            var seen = 0
            while true {
                lock.lock()
                while generation == seen && !shuttingDown { lock.wait() }
                if shuttingDown { lock.unlock(); return }
                seen = generation
                let count = itemCount
                lock.unlock()

                runBody(count: count)

                lock.lock()
                busyWorkers -= 1
                if busyWorkers == 0 { lock.broadcast() }
                lock.unlock()
            }
        }

        /// Runs the current loop body; kept out of line so this thread's reference to the
        /// closure is released before it reports completion (the caller's closure must not escape).
        @inline(never) func runBody(count: Int) {
            if let body { drain(body, count: count) }
        }

        func shutDown() {
            lock.lock()
            shuttingDown = true
            lock.broadcast()
            lock.unlock()
        }
    }
}
