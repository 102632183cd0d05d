// WindowOptions — the options of every command that opens the window (cube, open, library, calibrate).
import ArgumentParser
import LatencyRig

/// Window size, fullscreen, threads, stereo, soak statistics and the test hooks.
struct WindowOptions: ParsableArguments {
    @OptionGroup var size: SizeOption
    @Flag(help: "Start fullscreen.") var fullscreen = false
    @Option(help: "Late reprojection: each frame warped to the newest predicted eye just before it is presented (on); frames drawn on their own thread with every display refresh showing the newest one warped to that refresh's eye (async); shown as rendered (off); or on while frames take longer than 20 ms, off again below 12 ms (auto, the default).")
    var reproject: ReprojectMode = .auto
    @OptionGroup var threads: ThreadsOption
    @Option(name: .customLong("target-fps"), parsing: .unconditional,
            help: "Frame rate the window holds by choosing a capture's splat budget (and, at its floor, the render scale) every frame, 1…1000 (default: config targetFps, else the display's refresh rate, at most 60; with --reproject async the render rate, half the display's, at most 30: every refresh is warped). A named --splat-budget pins the budget instead.",
            transform: Checked.number(in: 1...1000, "fps"))
    var targetFps: Double?
    @Option(name: .customLong("stats-every"), parsing: .unconditional, help: "Print frame time and resident memory on stderr every S seconds, 0.1…3600 (soak runs).",
            transform: Checked.number(in: 0.1...3600, "s"))
    var statsEvery: Double?
    @OptionGroup var stereo: StereoOptions
    /// Tests: `FRAME:PATH` pushes an SDL drop event for PATH at that frame (the real drop path).
    @Option(name: .customLong("test-drop"), help: .hidden) var testDrop: TestDrop?
    /// Tests and soak runs: quit after this many frames.
    @Option(name: .customLong("frames"), parsing: .unconditional, help: .hidden, transform: Checked.integer(in: 1...1_000_000_000, "frames")) var frames: Int?
}

/// `--test-drop FRAME:PATH`.
struct TestDrop: ArgumentGrammar {
    var frame: Int
    var path: String

    static func parse(_ text: String) throws -> TestDrop {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let frame = Int(parts[0]), frame >= 0, !parts[1].isEmpty else { throw ArgumentRule("expected FRAME:PATH") }
        return TestDrop(frame: frame, path: parts[1])
    }
}

/// `--reproject off|on`: whether the window warps each rendered frame to the newest eye.
enum ReprojectMode: String, ArgumentChoice {
    case off, on, async, auto

    /// The rig's mode (the rig compares fixed modes: `auto` is the window's; it runs as `on`).
    var lateReprojection: LateReprojection {
        switch self {
        case .off: return .off
        case .on, .auto: return .lateLatch
        case .async: return .async
        }
    }
}
