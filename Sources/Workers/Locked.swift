// Locked — a value behind a pthread mutex (NSCondition), with waiting on a predicate: the
// program's one lock and one condition variable.
import Foundation

/// A value guarded by a pthread mutex, with a condition variable to wait for changes. The only
/// lock and condition type of the program's threads (see `Workers`).
///
/// Its API has `Synchronization.Mutex`'s shape, so the compiler checks what crosses it: the
/// value goes in as `sending` (no other reference to it stays outside), the body gets it as
/// `inout sending`, and what the body returns leaves as `sending`. A non-`Sendable` value
/// (a C handle, a reader's buffers) is thus safe inside one: every use of it is under the lock.
///
/// Waiting: `update` changes the value and wakes every waiter; `wait(until:timeout:_:)` sleeps
/// (the lock released) until a predicate on the value holds, then runs its body under the lock.
/// A thread that waits for "anything new" keeps a change counter in the value and waits until it
/// differs. Typical use, a worker loop and its owner:
///
/// ```swift
/// let state = Locked(Queue())
/// // worker thread
/// while let job = state.wait(until: { $0.stopping || !$0.jobs.isEmpty }, { q, _ in q.jobs.popFirst() }) { run(job) }
/// // owner
/// state.update { $0.jobs.append(job) }       // wakes the worker
/// state.update { $0.stopping = true }        // ends its loop
/// ```
// Audited: `value` is read and written only between `condition.lock()` and `unlock()`, and moves in and out as `sending`.
public final class Locked<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    /// A lock holding `value` (which no one else may keep a reference into).
    public init(_ value: consuming sending Value) { self.value = value }

    /// A lock holding `value` that the caller may still reach outside it: the compiler no longer
    /// checks that every use is under the lock, the caller does. For a non-`Sendable` value
    /// handed to workers while its owner waits for them (a caller's progress callback called
    /// from a parallel build, one call at a time); each use carries an `// Audited:` comment.
    public init(unchecked value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock. Wakes nobody: use `update` for a change
    /// that a waiter waits for.
    @discardableResult
    public func withLock<R>(_ body: (inout sending Value) throws -> sending R) rethrows -> sending R {
        condition.lock(); defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` under the lock, then wakes every waiter.
    @discardableResult
    public func update<R>(_ body: (inout sending Value) throws -> sending R) rethrows -> sending R {
        condition.lock(); defer { condition.broadcast(); condition.unlock() }
        return try body(&value)
    }

    /// Replaces the value with `newValue` (which no one else may keep a reference into) and
    /// wakes every waiter: how a thread hands over a non-`Sendable` result it made.
    public func set(_ newValue: consuming sending Value) {
        condition.lock(); defer { condition.broadcast(); condition.unlock() }
        value = newValue
    }

    /// Waits (the lock released while waiting) until `ready` holds or `timeout` seconds pass
    /// (nil: no limit), then runs `body` under the lock; `body` learns whether `ready` held.
    /// `ready` is evaluated under the lock, at the start and after every wake-up.
    @discardableResult
    public func wait<R>(until ready: (Value) -> Bool, timeout: Double? = nil,
                        _ body: (inout sending Value, Bool) throws -> sending R) rethrows -> sending R {
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
