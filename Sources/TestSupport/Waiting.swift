import Foundation

/// Waiting on a condition instead of sleeping: tests poll what they wait for, with a generous
/// deadline (scaled by `SPLATFRAME_TEST_TIME_SCALE`) that only catches a hang. A deadline is
/// never a pass/fail measurement of the machine's speed: a test must not pass or fail because
/// the machine was fast or slow.
///
/// ```swift
/// #expect(Wait.until { source.status().accepted == 1 })
/// #expect(Wait.returns { source.stop() } != nil, "stop hung")
/// ```
public enum Wait {
    /// Polls `condition` every `poll` seconds until it holds or `seconds × TestData.timeScale`
    /// pass; returns whether it held. `condition` runs on the calling thread.
    @discardableResult
    public static func until(timeout seconds: Double = 30, poll: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ nanoseconds(seconds * TestData.timeScale)
        while true {
            if try condition() { return true }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
            Thread.sleep(forTimeInterval: max(0.0005, poll))
        }
    }

    /// Runs `work` on a new thread and waits (up to `seconds × TestData.timeScale`) for it to
    /// return: a hang detector for calls that must not block ("stop must not hang"). Returns what
    /// `work` returned or threw, or nil when it had not returned by the deadline (the thread is
    /// then left running; the test fails instead of hanging).
    public static func returns<T: Sendable>(within seconds: Double = 30,
                                            _ work: @escaping @Sendable () throws -> T) -> Result<T, any Error>? {
        let box = ResultBox<T>()
        let thread = Thread {
            box.set(Result<T, any Error>(catching: { try work() }))
        }
        thread.name = "splatframe.test.wait"
        thread.start()
        var result: Result<T, any Error>?
        until(timeout: seconds, poll: 0.002) {
            result = box.get()
            return result != nil
        }
        return result
    }

    private static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return seconds < 1e9 ? UInt64(seconds * 1e9) : UInt64(1e18)
    }
}

/// The result of work run on another thread, handed back under a lock.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<T, any Error>?

    func set(_ r: Result<T, any Error>) { lock.lock(); value = r; lock.unlock() }
    func get() -> Result<T, any Error>? { lock.lock(); defer { lock.unlock() }; return value }
}
