// WorkerThread — a stoppable loop on its own `Thread`, joined with a bounded wait.
import Foundation
import Synchronization

/// Runs `body` repeatedly on a dedicated `Thread` until `stop()`. Each iteration must return
/// within a bounded time (sources use poll timeouts or short sleeps), so `stop()` can join.
public final class WorkerThread: Sendable {
    private let running = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)
    private let name: String

    public init(name: String) { self.name = name }

    /// True between `start` and `stop`.
    public var isRunning: Bool { running.withLock { $0 } }

    /// Spawns the thread; `body` is called in a loop while running. No-op if already running.
    public func start(_ body: @escaping @Sendable () -> Void) {
        let wasRunning = running.withLock { r -> Bool in let w = r; r = true; return w }
        if wasRunning { return }
        let thread = Thread { [self] in
            while isRunning { body() }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to end and waits up to `timeout` seconds for it. Returns false on timeout.
    @discardableResult
    public func stop(timeout: Double = 2) -> Bool {
        let wasRunning = running.withLock { r -> Bool in let w = r; r = false; return w }
        guard wasRunning else { return true }
        return finished.wait(timeout: .now() + timeout) == .success
    }
}
