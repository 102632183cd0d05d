// Late reprojection in the real window (under Xvfb): each mode presents its frames and exits
// cleanly; with --stereo, async says it warps as `on` does. (`make sanitize` runs these with the
// sanitized binary: the async renderer's thread under TSan.)
import Foundation
import TestSupport
import Testing

@Suite("late reprojection in the window", .serialized)
struct ReprojectWindowTests {
    @Test(arguments: ["on", "async", "auto"])
    func theWindowPresentsInEveryMode(mode: String) throws {
        let x = try XvfbServer()
        defer { withExtendedLifetime(x) {} }
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let env = ProcessInfo.processInfo.environment.merging(["DISPLAY": x.display]) { _, new in new }
        // A hang (a present waiting for a frame that never comes) fails on the generous deadline.
        let run = Wait.returns(within: 300) {
            try BinaryLocator.run(binary, ["cube", "--reproject", mode, "--frames", "40", "--size", "320x180",
                                           "--head", "fixed:0.02,0.01,0.6"], environment: env)
        }
        let r = try #require(try run?.get(), "the window hung with --reproject \(mode)")
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func asyncInStereoWarpsAsOn() throws {
        let x = try XvfbServer()
        let r = try x.run(["cube", "--reproject", "async", "--stereo", "sbs", "--frames", "10", "--size", "320x180",
                           "--head", "fixed:0,0,0.6"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("--reproject async draws one view; with --stereo each pair is warped when presented"), "\(r.stderr)")
    }
}
