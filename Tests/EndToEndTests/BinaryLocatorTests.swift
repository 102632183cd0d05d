// BinaryLocatorTests — the end-to-end tests' runner itself: a child that fills its stderr pipe
// (more than the 64 KiB a pipe holds) while we would be waiting on stdout must not stall it, and
// a child past its deadline is killed with a clear error. Guarded twice: by the run's own
// deadline and by `Wait.returns`, so that a regression fails the test instead of hanging the suite.
import Foundation
import TestSupport
import Testing

@Suite struct BinaryLocatorTests {
    @Test func aChildFillingStderrFirstDoesNotStall() throws {
        let result = Wait.returns(within: 120) {
            try BinaryLocator.run("/bin/sh", ["-c", "head -c 200000 /dev/zero >&2; echo ok"], timeLimit: 60)
        }
        let r = try #require(result, "BinaryLocator.run hung on a child writing 200000 bytes to stderr").get()
        #expect(r.status == 0 && r.stdout == "ok\n" && r.stderr.utf8.count == 200_000, "\(r.status) \(r.stdout)")
    }

    @Test func aChildPastItsDeadlineIsKilled() throws {
        let result = Wait.returns(within: 120) { () throws -> String in
            do {
                try BinaryLocator.run("/bin/sh", ["-c", "exec sleep 600"], timeLimit: 0.5)
                return "finished"
            } catch let e as BinaryLocator.RunError {
                return e.description
            }
        }
        let text = try #require(result, "BinaryLocator.run did not stop at its deadline").get()
        #expect(text.hasPrefix("sh -c ") && text.contains("did not finish within 0.5 s and was killed"), "\(text)")
    }
}
