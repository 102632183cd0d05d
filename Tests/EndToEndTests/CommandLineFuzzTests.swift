import Foundation
import TestSupport
import Testing
import Workers

/// A seeded black-box fuzz of the real binary's command line: every headless command with
/// hostile values (NaN, ±inf, 1e300, 2^31, negatives, empty and malformed text, 0x0 and huge
/// sizes, missing, empty, odd and directory files; values starting with `-` right after their
/// option, or attached as `--name=value`; outputs as `--out`, positional, both or neither) and the
/// window commands with no display.
/// Every run must end by exiting — 0, or 2 with exactly one `splatframe: error:` line — never by
/// a signal or a hang. Reproducible: run i draws from `seed ^ i`.
///
/// `SPLATFRAME_CLI_FUZZ_RUNS` (default 500) and `SPLATFRAME_CLI_FUZZ_SEED` change the run;
/// `SPLATFRAME_CLI_FUZZ_SECONDS` keeps drawing runs for that long instead (`make fuzz-cli`);
/// `SPLATFRAME_CLI_FUZZ_BINARY` fuzzes another build (an older commit's, say).
@Suite("Command-line fuzz")
struct CommandLineFuzzTests {
    @Test("hostile values on every command: an exit, never a signal or a hang, and one line for an error")
    func fuzz() throws {
        let env = ProcessInfo.processInfo.environment
        let binary = try env["SPLATFRAME_CLI_FUZZ_BINARY"] ?? #require(BinaryLocator.splatframe(), "build the package first: no .build/*/splatframe")
        let seed = env["SPLATFRAME_CLI_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_CAFE
        let runs = env["SPLATFRAME_CLI_FUZZ_RUNS"].flatMap { Int($0) } ?? 500
        let seconds = env["SPLATFRAME_CLI_FUZZ_SECONDS"].flatMap { Double($0) }
        let corpus = try FuzzCorpus()
        let log = FuzzLog()
        let start = Date()
        // Two runs at a time: the machine's two cores, each run a whole process.
        let lanes = 2
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var i = lane
            while seconds.map({ Date().timeIntervalSince(start) < $0 }) ?? (i < runs) {
                var rng = SplitMix64(seed: seed ^ UInt64(i).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15).low)
                let (command, arguments) = corpus.draw(&rng)
                let outcome = FuzzRun.execute(binary: binary, arguments: arguments, scratch: corpus.scratch(i))
                log.add(index: i, command: command, arguments: arguments, outcome: outcome)
                i += lanes
            }
        }
        print(log.summary(seed: seed))
        for failure in log.failures.prefix(20) {
            Issue.record("\(failure)")
        }
        #expect(log.total >= min(runs, 1) || seconds != nil)
    }

    @Test("the crashes the first fuzz found are one-line errors now", arguments: [
        ["render", "generate:infk", "--eye", "0,0,0.6", "--out", "x.png"],
        ["render", "generate:1e300k", "--eye", "0,0,0.6", "--out", "x.png"],
        ["generate", "2147483648", "out.ply"],
    ])
    func formerCrashes(arguments: [String]) throws {
        let dir = TestData.temporaryDirectory()
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let outcome = FuzzRun.execute(binary: binary, arguments: arguments, scratch: dir)
        #expect(outcome.signal == nil && !outcome.hung, "\(outcome)")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.errorLines.count == 1, "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.ply").path))
    }

    @Test("the same bad value gets the same message on every command that takes the option", arguments: [
        ("--threads", "0"), ("--size", "0x0"), ("--eye", "0,0,-1"), ("--filter", "ema:9"), ("--screen-mm", "nan,3"),
        ("--splat-budget", "-5"), ("--movement-scale", "inf"), ("--eye", "-0.05,0,-0.6"), ("--head", "fixed:0,0,-0.6"),
        ("--predict", "-5"), ("--up", "-w"), ("--detector", "x"),
    ])
    func sameMessage(option: String, value: String) throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let dir = TestData.temporaryDirectory()
        var messages: [String: [String]] = [:]
        for command in FuzzCorpus.commandsTaking(option) {
            let outcome = FuzzRun.execute(binary: binary, arguments: command + [option, value], scratch: dir)
            #expect(outcome.status == 2, "\(command) \(option) \(value): \(outcome)")
            let line = outcome.errorLines.first.map(String.init) ?? "(none)"
            messages[line, default: []].append(command.joined(separator: " "))
        }
        #expect(messages.count == 1, "different messages: \(messages)")
        #expect(messages.keys.first?.contains(option) == true, "\(messages)")
    }
}

/// One process run and how it ended.
struct FuzzRun: CustomStringConvertible {
    var status: Int32?
    var signal: Int32?
    var hung = false
    var stderr = ""
    var reachedRun: [String] = []

    /// Lines of the one-line error format.
    var errorLines: [Substring] { stderr.split(separator: "\n").filter { $0.hasPrefix("splatframe: error:") } }

    /// A run passes when it exits (not a signal, not a hang) with 0, or with 2 and one error line,
    /// and no Swift runtime trap or sanitizer report is on stderr.
    var failure: String? {
        if hung { return "hung" }
        if let signal { return "killed by signal \(signal)" }
        if stderr.contains("Fatal error") || stderr.contains("runtime failure") || stderr.contains("Sanitizer") { return "runtime trap" }
        switch status {
        case 0: return nil
        case 2: return errorLines.count == 1 ? nil : "exit 2 with \(errorLines.count) error lines"
        default: return "exit \(status.map(String.init) ?? "?")"
        }
    }

    var description: String {
        "exit \(status.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-")\(hung ? " HUNG" : ""): \(stderr.prefix(600))"
    }

    /// Runs `binary` with no display, in `scratch`, hermetic, with a generous deadline
    /// (120 s × SPLATFRAME_TEST_TIME_SCALE) after which it is killed and counted as a hang.
    static func execute(binary: String, arguments: [String], scratch: URL) -> FuzzRun {
        var env = BinaryLocator.hermetic()
        env["DISPLAY"] = nil; env["WAYLAND_DISPLAY"] = nil
        let marker = scratch.appendingPathComponent("run-marker")
        FileManager.default.createFile(atPath: marker.path, contents: nil)
        env["SPLATFRAME_RUN_MARKER"] = marker.path
        let errFile = scratch.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let errFD = open(errFile.path, O_WRONLY | O_CLOEXEC)
        guard errFD >= 0 else { return FuzzRun(status: nil, stderr: "cannot open \(errFile.path)") }
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(errFD); if devNull >= 0 { close(devNull) } }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(binary, arguments, environment: env, stdout: devNull >= 0 ? devNull : nil, stderr: errFD,
                                           currentDirectory: scratch.path)
        } catch { return FuzzRun(status: nil, stderr: "cannot start: \(error)") }
        var run = FuzzRun()
        if let end = child.wait(timeout: 120 * TestData.timeScale) {
            if case .signaled(let s) = end { run.signal = s } else { run.status = end.status }
        } else {
            run.hung = true
            child.kill()
            _ = child.wait()
        }
        // Foundation's file reading leaks its buffer here under LeakSanitizer (Scripts/lsan.supp).
        run.stderr = String(decoding: FileManager.default.contents(atPath: errFile.path) ?? Data(), as: UTF8.self)
        run.reachedRun = String(decoding: FileManager.default.contents(atPath: marker.path) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        return run
    }
}

/// What the runs found, per command.
final class FuzzLog: @unchecked Sendable {
    private let lock = NSLock()
    private var perCommand: [String: (runs: Int, reached: Int, ok: Int, errors: Int)] = [:]
    private(set) var failures: [String] = []
    /// Failures by kind ("killed by signal 6", "hung", "exit 2 with 0 error lines"…), with the runs.
    private var kinds: [String: [String]] = [:]
    private(set) var total = 0

    func add(index: Int, command: String, arguments: [String], outcome: FuzzRun) {
        lock.lock(); defer { lock.unlock() }
        total += 1
        var c = perCommand[command] ?? (0, 0, 0, 0)
        c.runs += 1
        if !outcome.reachedRun.isEmpty { c.reached += 1 }
        if outcome.status == 0 { c.ok += 1 } else if outcome.status == 2 { c.errors += 1 }
        perCommand[command] = c
        if let why = outcome.failure {
            let quoted = arguments.map { $0.isEmpty || $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
            // Signals, traps and hangs first: they are what the fuzz is for.
            let line = "run \(index): splatframe \(quoted): \(why) — \(outcome)"
            if why.hasPrefix("exit 2 with") { failures.append(line) } else { failures.insert(line, at: 0) }
            kinds[why, default: []].append("splatframe \(quoted)")
        }
    }

    func summary(seed: UInt64) -> String {
        lock.lock(); defer { lock.unlock() }
        var s = "command-line fuzz, seed \(seed): \(total) runs, \(failures.count) failures\n"
        s += "command           runs  reached run()  exit 0  exit 2\n"
        for (name, c) in perCommand.sorted(by: { $0.key < $1.key }) {
            s += name.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%6d  %13d  %6d  %6d\n", c.runs, c.reached, c.ok, c.errors)
        }
        for (why, runs) in kinds.sorted(by: { $0.key < $1.key }) {
            s += "\(runs.count) × \(why), e.g. " + runs.prefix(3).joined(separator: " | ") + "\n"
        }
        return s
    }
}
