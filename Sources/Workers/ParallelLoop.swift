// ParallelLoop — independent pieces of work (a level-of-detail build's leaves, a streamed SOG's
// chunks) spread over a `WorkerPool`, each thread claiming the next index.
import Foundation

/// Runs indices on several threads, each worker claiming the next unclaimed one.
public enum ParallelLoop {
    /// Calls `body(i)` once for each `i` in `0..<count` on `threads` threads (the caller's among
    /// them). Stops claiming when `cancelled` says so or a body throws; the first error is then
    /// rethrown once every worker has stopped. `progress` gets (finished, count) after each body,
    /// one call at a time.
    public static func run(count: Int, threads: Int, cancelled: (@Sendable () -> Bool)? = nil,
                           progress: ((Int, Int) -> Void)? = nil, _ body: @escaping (Int) throws -> Void) throws {
        guard count > 0 else { return }
        let job = IndexJob(count: count, cancelled: cancelled, progress: progress, body: body)
        WorkerPool<IndexJob>(threads: max(1, min(threads, count))).run(job) { job, _ in job.work() }
        if let error = job.firstError { throw error }
    }
}

/// The indices of one `ParallelLoop.run`, shared by its workers.
private final class IndexJob {
    private let count: Int
    private let body: (Int) throws -> Void
    private let cancelled: (@Sendable () -> Bool)?
    private let progress: ((Int, Int) -> Void)?
    private let state = Locked((next: 0, done: 0, error: nil as Error?))

    init(count: Int, cancelled: (@Sendable () -> Bool)?, progress: ((Int, Int) -> Void)?, body: @escaping (Int) throws -> Void) {
        self.count = count; self.cancelled = cancelled; self.progress = progress; self.body = body
    }

    var firstError: Error? { state.withLock { $0.error } }

    func work() {
        while cancelled?() != true {
            let claimed: Int? = state.withLock { s in
                guard s.error == nil, s.next < count else { return nil }
                s.next += 1
                return s.next - 1
            }
            guard let i = claimed else { return }
            do {
                try body(i)
                state.withLock { s in
                    s.done += 1
                    progress?(s.done, count)
                }
            } catch {
                state.withLock { s in if s.error == nil { s.error = error } }
            }
        }
    }
}
