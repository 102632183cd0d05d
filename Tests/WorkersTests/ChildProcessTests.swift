// ChildProcess against /bin/sh: exit statuses, signals, a deadline, what the child inherits.
import Foundation
import Testing
import Workers

@Suite("Child process")
struct ChildProcessTests {
    /// Runs `script` under /bin/sh, its stdout read through a pipe.
    static func run(_ script: String, environment: [String: String]? = nil) throws -> (ChildProcess.Termination?, String) {
        let pipe = try ChildProcess.makePipe()
        let child = try ChildProcess.spawn("/bin/sh", ["-c", script], environment: environment, stdout: pipe.write)
        close(pipe.write)
        var output = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        close(pipe.read)
        return (child.wait(), String(decoding: output, as: UTF8.self))
    }

    @Test func statusesSignalsAndOutput() throws {
        #expect(try Self.run("echo hello; exit 3") == (.exited(3), "hello\n"))
        #expect(try Self.run("kill -TERM $$").0 == .signaled(SIGTERM))
        #expect(try Self.run("printf %s \"$GREETING\"", environment: ["GREETING": "hi there"]).1 == "hi there")
        #expect(throws: ChildProcessError.self) { try ChildProcess.spawn("/nonexistent/program", []) }
    }

    @Test func theChildInheritsNoOtherDescriptor() throws {
        // An open pipe of ours (not closed on exec) must not reach the child: only 0, 1, 2 (and
        // the descriptor ls reads /proc/self/fd with).
        var stray: [Int32] = [0, 0]
        #expect(pipe(&stray) == 0)
        defer { close(stray[0]); close(stray[1]) }
        let (end, listing) = try Self.run("ls /proc/self/fd")
        #expect(end == .exited(0))
        let fds = listing.split(separator: "\n").compactMap { Int32($0) }
        #expect(!fds.contains(stray[0]) && !fds.contains(stray[1]), "\(fds)")
        #expect(fds.filter { $0 > 2 }.count <= 1, "\(fds)")
    }

    @Test func aDeadlineReturnsAndTheChildCanBeKilled() throws {
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "exec sleep 60"])
        #expect(child.wait(timeout: 0.05) == nil)
        child.kill()
        #expect(child.wait() == .signaled(SIGKILL))
        #expect(child.wait(timeout: 0) == .signaled(SIGKILL))
    }
}
