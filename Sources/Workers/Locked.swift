// Locked — a value behind a pthread mutex (NSCondition), with waiting on a predicate.
import Foundation

/// A value guarded by a pthread mutex, with a condition variable to wait for changes.
/// The only lock type of the program's threads (see `Workers`).
public final class Locked<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        condition.lock(); defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` under the lock, then wakes every waiter.
    @discardableResult
    public func update<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        condition.lock(); defer { condition.broadcast(); condition.unlock() }
        return try body(&value)
    }

    /// Waits (the lock released while waiting) until `ready` holds or `timeout` seconds pass
    /// (nil: no limit), then runs `body` under the lock; `body` learns whether `ready` held.
    @discardableResult
    public func wait<R>(until ready: (Value) -> Bool, timeout: Double? = nil, _ body: (inout Value, Bool) throws -> R) rethrows -> R {
        condition.lock(); defer { condition.unlock() }
        let deadline = timeout.map { Date(timeIntervalSinceNow: max(0, $0)) }
        while !ready(value) {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        return try body(&value, ready(value))
    }

    /// Wakes every waiter (after a change made through `withLock`).
    public func broadcast() {
        condition.lock(); condition.broadcast(); condition.unlock()
    }
}
