import Foundation
import Testing
import Workers

/// `ParallelLoop.run`: every index exactly once, however many threads (0, 1, more than items);
/// stops early on cancellation or an error, and never runs an index twice.
@Suite struct ParallelLoopTests {
    static let counts = [0, 1, 2, 3, 7, 64, 1000]
    static let threadCounts = [0, 1, 2, 3, 8, 16]

    @Test(arguments: counts, threadCounts)
    func everyIndexExactlyOnce(count: Int, threads: Int) throws {
        let seen = Locked((hits: [Int](repeating: 0, count: count), stray: 0, threads: Set<ObjectIdentifier>()))
        try ParallelLoop.run(count: count, threads: threads) { i in
            let thread = ObjectIdentifier(Thread.current)
            seen.withLock { s in
                if s.hits.indices.contains(i) { s.hits[i] += 1 } else { s.stray += 1 }
                s.threads.insert(thread)
            }
        }
        let s = seen.withLock { $0 }
        #expect(s.stray == 0, "indices outside 0..<\(count)")
        #expect(s.hits.allSatisfy { $0 == 1 }, "missed: \(s.hits.indices.filter { s.hits[$0] == 0 }.prefix(5)), twice or more: \(s.hits.indices.filter { s.hits[$0] > 1 }.prefix(5))")
        #expect(s.threads.count <= max(1, min(threads, count)), "more threads than asked for")
    }

    /// Progress comes once per finished index, counting up to `count`, one call at a time.
    @Test func progressCountsEveryIndex() throws {
        var reports: [Int] = []
        try ParallelLoop.run(count: 500, threads: 4, progress: { done, total in
            #expect(total == 500)
            reports.append(done)
        }) { _ in }
        #expect(reports == Array(1...500))
    }

    /// Once `cancelled` says so, workers claim no more indices: far fewer than all run, none twice.
    @Test(arguments: [1, 2, 4])
    func cancellationStopsClaiming(threads: Int) throws {
        let count = 100_000, stopAfter = 50
        let seen = Locked((hits: [Int](repeating: 0, count: count), done: 0))
        try ParallelLoop.run(count: count, threads: threads, cancelled: { seen.withLock { $0.done >= stopAfter } }) { i in
            seen.withLock { $0.hits[i] += 1; $0.done += 1 }
        }
        let s = seen.withLock { $0 }
        // Each worker may have claimed one index before it saw the flag.
        #expect(s.done >= stopAfter && s.done <= stopAfter + threads, "ran \(s.done) of \(count)")
        #expect(s.hits.allSatisfy { $0 <= 1 })
    }

    struct Failure: Error, Equatable { let index: Int }

    /// The first error is rethrown once every worker has stopped, and claiming stops with it.
    @Test(arguments: [1, 2, 4])
    func errorStopsTheLoopAndIsRethrown(threads: Int) {
        let count = 100_000, failing = 20
        let seen = Locked((hits: [Int](repeating: 0, count: count), running: 0, done: 0))
        #expect(throws: Failure(index: failing)) {
            try ParallelLoop.run(count: count, threads: threads) { i in
                seen.withLock { $0.hits[i] += 1; $0.running += 1 }
                defer { seen.withLock { $0.running -= 1; $0.done += 1 } }
                if i == failing { throw Failure(index: i) }
            }
        }
        let s = seen.withLock { $0 }
        #expect(s.running == 0, "run returned while a worker was still in its body")
        #expect(s.done < count / 2, "the loop went on after the error (\(s.done) ran)")
        #expect(s.hits.allSatisfy { $0 <= 1 })
    }
}
