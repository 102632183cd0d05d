// Workers — ChildProcess: a program started with posix_spawn and waited for with a deadline.
// Foundation's `Process` on Linux keeps every Process it ran (with its arguments, environment
// and pipes) alive after the child ends: LeakSanitizer counted thousands of them in the test
// suite, and the model importer left one behind per import. This owns nothing but the pid.
import Foundation

/// A child process: started by `spawn`, ended by `wait` (or `kill` then `wait`).
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal (this number) ended it.
        case signaled(Int32)

        /// The exit status, or the signal's number (as Foundation's `terminationStatus` gives it).
        public var status: Int32 {
            switch self { case .exited(let s), .signaled(let s): return s }
        }
    }

    /// The child's process id.
    public let pid: pid_t
    /// How it ended, once a `wait` saw it (any thread may ask).
    private let endState = Locked<Termination?>(nil)
    private var ended: Termination? { endState.withLock { $0 } }

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` (a path) with `arguments` and `environment` (nil: this process's).
    /// `stdin`, `stdout`, `stderr`: descriptors the child gets as 0, 1 and 2 (nil: /dev/null for
    /// stdin, this process's own for the others). Every other descriptor is closed in the child.
    /// `currentDirectory`: where it starts (nil: here).
    /// - Throws: `ChildProcessError.spawn` when it cannot be started.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil,
                             currentDirectory: String? = nil) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
        _ = spawnFileActionsAddClosefrom(&actions, 3)
        if let currentDirectory { _ = spawnFileActionsAddChdir(&actions, currentDirectory) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let env = environment ?? ProcessInfo.processInfo.environment
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv { free(p) }; for p in envp { free(p) } }
        // Signals as a fresh program expects them: none blocked, every one at its default (a test
        // runner's ignored SIGPIPE or SIGTERM would otherwise pass to the child).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t(), defaults = sigset_t()
        sigemptyset(&mask); sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw ChildProcessError.spawn(executable: executable, reason: String(cString: strerror(status))) }
        return ChildProcess(pid: pid)
    }

    /// A pipe (read end, write end), both closed on exec (a child started meanwhile by another
    /// thread closes them anyway: `spawn` closes every descriptor past 2).
    public static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ChildProcessError.spawn(executable: "pipe", reason: String(cString: strerror(errno))) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Waits for the child to end, at most `timeout` seconds (nil: for ever); nil when it is still
    /// running then. Polls every 2 ms (a child's end wakes nothing here).
    public func wait(timeout: Double? = nil) -> Termination? {
        if let ended { return ended }
        let deadline = timeout.map { DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min($0, 1e9)) * 1e9) }
        while true {
            var status: Int32 = 0
            let r = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if r == pid {
                let signal = status & 0x7f
                let end: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
                endState.withLock { $0 = end }
                return end
            }
            if r < 0 && errno != EINTR {
                // Reaped by a `wait` on another thread (or not ours): what that one saw.
                return endState.withLock { s in
                    if s == nil { s = .exited(-1) }
                    return s
                }
            }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return nil }
            if deadline != nil { usleep(2000) }
        }
    }

    /// Whether the child still runs (reaps it when it has ended).
    public var isRunning: Bool { wait(timeout: 0) == nil }

    /// Sends `signal` (default SIGKILL) unless the child has been waited for.
    public func kill(_ signal: Int32 = SIGKILL) {
        guard ended == nil else { return }
        _ = Glibc.kill(pid, signal)
    }

    deinit {
        // Never leave a zombie: a child not waited for is stopped and reaped.
        if ended == nil { _ = Glibc.kill(pid, SIGKILL); var s: Int32 = 0; _ = waitpid(pid, &s, 0) }
    }
}

/// A child that could not be started.
public enum ChildProcessError: Error, CustomStringConvertible, Equatable {
    case spawn(executable: String, reason: String)

    public var description: String {
        switch self { case let .spawn(executable, reason): return "cannot start \(executable): \(reason)" }
    }
}

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Glibc's module does not
/// export: the child closes every descriptor from `from` on, so it inherits no other pipe.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnFileActionsAddClosefrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// glibc's posix_spawn_file_actions_addchdir_np (2.29+), likewise not exported: the child starts in `path`.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnFileActionsAddChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
