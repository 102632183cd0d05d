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

    /// `--reproject async` governs the render rate: with a moving head, a capture's budget falls
    /// below the whole capture when the target cannot be held (1000 fps here), as the
    /// `--stats-every` lines report.
    @Test func asyncGovernsTheBudget() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first")
        let dir = TestData.temporaryDirectory("asyncgovernor")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ply = dir.appendingPathComponent("object.ply").path
        let g = try BinaryLocator.run(bin, ["generate", "3000", ply])
        try #require(g.status == 0, "\(g.stderr)")
        // A head swaying ±5 cm at 0.5 Hz for 10 minutes (a still one has the governor draw the whole capture).
        let log = dir.appendingPathComponent("sway.csv").path
        let rows = (0..<36_000).map { k -> String in
            let t = Double(k) / 60
            return "\(t),\(0.05 * sin(Double.pi * t)),0.01,0.6"
        }
        try ("t,x,y,z\n" + rows.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let window = try RunningWindow(["open", ply, "--splat-budget", "auto", "--reproject", "async", "--target-fps", "1000",
                                        "--stats-every", "0.2", "--size", "96x54", "--head", "replay:" + log])
        func budgets() -> [Int] {
            window.stderr.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("budget=") }.flatMap { Int($0.dropFirst(7)) }
            }
        }
        // The levels are built first (drawn whole meanwhile), then governed frames follow.
        let fell = window.waitFor(300) { (budgets().min() ?? .max) < 3000 }
        #expect(fell, "the budget never fell below the whole capture: \(budgets()), \(window.stderr)")
    }

    @Test func asyncInStereoWarpsAsOn() throws {
        let x = try XvfbServer()
        let r = try x.run(["cube", "--reproject", "async", "--stereo", "sbs", "--frames", "10", "--size", "320x180",
                           "--head", "fixed:0,0,0.6"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("--reproject async draws one view; with --stereo each pair is warped when presented"), "\(r.stderr)")
    }
}
