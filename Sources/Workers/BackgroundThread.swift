// BackgroundThread — the one background-worker type: a named thread running a loop until it is
// stopped or its body says it is done, joined with a bounded wait.
import Foundation

/// A stoppable loop on its own thread. `start` calls `body` repeatedly until `stop()` or until
/// `body` returns false (one-shot work returns false at once). Each call must return within a
/// bounded time (poll timeouts, `pause`), so `stop` can join.
public final class BackgroundThread: Sendable {
    public let name: String
    private struct State { var stopping = false, running = false, wakes = 0 }
    private let state = Locked(State())

    public init(name: String) { self.name = name }

    /// True from `start` until the loop has ended.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// True once `stop` was called: a long body should return soon.
    public var isStopping: Bool { state.withLock { $0.stopping } }

    /// Starts the thread; does nothing (and returns false) while a previous loop still runs.
    /// After `stop` has ended the loop, `start` begins a new one.
    @discardableResult
    public func start(_ body: @escaping @Sendable () -> Bool) -> Bool {
        let first = state.withLock { s -> Bool in
            guard !s.running else { return false }
            s.stopping = false; s.running = true
            return true
        }
        guard first else { return false }
        // The thread holds this object, not its owner; it lets go when the loop ends.
        let thread = Thread { [self] in
            // Named from inside as well: Foundation on Linux gives the kernel (`top -H`, gdb,
            // /proc/self/task/*/comm) only the name a thread sets on itself. 15 bytes are kept.
            Thread.current.name = name
            while !isStopping, body() {}
            state.update { $0.running = false }
        }
        thread.name = name
        thread.start()
        return true
    }

    /// Starts a loop whose body has no end of its own (it runs until `stop`).
    @discardableResult
    public func start(loop body: @escaping @Sendable () -> Void) -> Bool {
        start { body(); return true }
    }

    /// Sleeps up to `seconds` on the thread, returning early when stopped or woken.
    public func pause(_ seconds: Double) {
        let wakes = state.withLock { $0.wakes }
        state.wait(until: { $0.stopping || $0.wakes != wakes }, timeout: seconds) { _, _ in }
    }

    /// Ends a `pause` early.
    public func wake() { state.update { $0.wakes &+= 1 } }

    /// Asks the loop to end and waits up to `timeout` seconds for it (0: do not wait). Returns
    /// whether the loop has ended (true when none was running).
    @discardableResult
    public func stop(timeout: Double = 2) -> Bool {
        let running = state.update { s -> Bool in
            if s.running { s.stopping = true }
            return s.running
        }
        guard running else { return true }
        return state.wait(until: { !$0.running }, timeout: timeout) { _, ended in ended }
    }
}
