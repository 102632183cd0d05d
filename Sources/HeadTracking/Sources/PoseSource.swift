// PoseSource — the protocol every head source implements.

/// A producer of head samples. Implementations are `final class … : Sendable` with
/// `Locked` state (Workers); threaded sources run their own `Thread` between `start()` and `stop()`.
/// `latest()` never blocks on the producer (a short critical section at most).
public protocol PoseSource: AnyObject, Sendable {
    /// A short human-readable name for the HUD and logs, e.g. `udp:127.0.0.1:4242`.
    var name: String { get }
    /// Starts producing (opens sockets, spawns the thread). Idempotent.
    func start() throws
    /// Stops producing and joins the thread (bounded wait). Idempotent.
    func stop()
    /// The newest sample, or nil when nothing has arrived yet.
    func latest() -> PoseSample?
    /// A one-line account of what the source has received so far (packets, frames, drops) for
    /// logs and the HUD, or nil when there is nothing to say.
    var statusSummary: String? { get }
}

extension PoseSource {
    public var statusSummary: String? { nil }
}
