// The command line's forms through the real binary: a negative value right after its option,
// one eye rule wherever a value is an eye, `--out` beside the old positional outputs, one scene
// option group (export takes --splat-budget), typed values listed by --help, options declared once.
import Foundation
import ImageIO
import TestSupport
import Testing

@Suite("Command-line forms")
struct CommandLineFormsTests {
    static func binary() throws -> String {
        try #require(BinaryLocator.splatframe(), "build the package first (swift build): no .build/*/splatframe")
    }

    /// A run that must fail: exit 2 and exactly one `splatframe: error:` line, which is returned.
    static func failure(_ arguments: [String]) throws -> String {
        let r = try BinaryLocator.run(try binary(), arguments, environment: BinaryLocator.hermetic())
        #expect(r.status == 2, "\(arguments): exit \(r.status): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("splatframe: error:") }
        #expect(lines.count == 1, "\(arguments): \(r.stderr)")
        return lines.first.map(String.init) ?? ""
    }

    @Test("a negative eye right after --eye is a value, as after --eye=")
    func negativeEyeAfterOption() throws {
        let dir = TestData.temporaryDirectory("cli-forms")
        var pngs: [[UInt8]] = []
        for eye in [["--eye", "-0.05,0,0.6"], ["--eye=-0.05,0,0.6"]] {
            let png = dir.appendingPathComponent("eye\(pngs.count).png").path
            let r = try BinaryLocator.run(try Self.binary(), ["render"] + eye + ["--size", "64x36", "--threads", "1", "--out", png])
            #expect(r.status == 0, "\(eye): \(r.stderr)")
            pngs.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
        }
        #expect(pngs[0] == pngs[1])
        // The view matrix moves the world by minus the eye: x = +0.05.
        let f = try BinaryLocator.run(try Self.binary(), ["frustum", "--eye", "-0.05,0.02,0.5"])
        #expect(f.status == 0, "\(f.stderr)")
        let view = try #require((try JSONSerialization.jsonObject(with: Data(f.stdout.utf8)) as? [String: [Double]])?["view"])
        #expect(view[12] == 0.05 && view[13] == -0.02 && view[14] == -0.5, "\(view)")
        // Other values that start with '-' too: an up axis, a negated log axis, a negative number (its range message).
        let up = try BinaryLocator.run(try Self.binary(), ["render", "sphere:50", "--up", "-y", "--eye", "0,0,0.6", "--size", "16x9",
                                                         "--out", dir.appendingPathComponent("up.png").path])
        #expect(up.status == 0, "\(up.stderr)")
        #expect(try Self.failure(["frustum", "--eye", "0,0,0.6", "--near", "-1"]).contains("The value '-1' is invalid for '--near"))
        #expect(try Self.failure(["config", "--axes", "-x,q,z"]).contains("The value '-x,q,z' is invalid for '--axes"))
    }

    @Test("an eye obeys one rule wherever it is given: --eye and --head fixed:", arguments: [
        ("0,0,-0.5", "in front of the screen"), ("0,0,0", "in front of the screen"), ("0,0,101", "within 100 m"),
        ("0,nan,0.6", "three numbers"), ("1,2", "three numbers"),
    ])
    func eyeRule(eye: String, reason: String) throws {
        let viaEye = try Self.failure(["frustum", "--eye", eye])
        #expect(viaEye.contains("'--eye <eye>'") && viaEye.contains(reason), "\(viaEye)")
        for command in [["config"], ["track", "record", "--duration", "0.05", "--out", "/nonexistent/x.csv"]] {
            let viaHead = try Self.failure(command + ["--head", "fixed:" + eye])
            #expect(viaHead.contains("'--head <head>'") && viaHead.contains(reason), "\(command): \(viaHead)")
        }
    }

    @Test("--head fixed: takes the eyes --eye takes, a negative X among them")
    func fixedHeadAccepted() throws {
        let csv = TestData.temporaryDirectory("cli-forms").appendingPathComponent("fixed.csv").path
        let r = try BinaryLocator.run(try Self.binary(), ["track", "record", "--head", "fixed:-0.05,0,0.6", "--duration", "0.05", "--out", csv],
                                      environment: BinaryLocator.hermetic())
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t") }
        #expect(!rows.isEmpty && rows.allSatisfy { $0.split(separator: ",")[1].hasPrefix("-0.05") }, "\(rows.prefix(3))")
    }

    @Test("generate, convert and track convert take --out or the positional output, the same file either way; both is an error")
    func outOrPositional() throws {
        let dir = TestData.temporaryDirectory("cli-forms")
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let log = path("in.csv")
        try Data("t,x,y,z\n0,0,0,0.6\n0.05,0.01,0,0.6\n".utf8).write(to: URL(fileURLWithPath: log))
        let cases: [(positional: [String], option: [String], a: String, b: String)] = [
            (["generate", "300", path("a.ply")], ["generate", "300", "--out", path("b.ply")], path("a.ply"), path("b.ply")),
            (["convert", path("a.ply"), path("a.splat")], ["convert", path("a.ply"), "--out", path("b.splat")], path("a.splat"), path("b.splat")),
            (["track", "convert", log, path("a.csv")], ["track", "convert", "--out", path("b.csv"), log], path("a.csv"), path("b.csv")),
        ]
        for c in cases {
            for args in [c.positional, c.option] {
                let r = try BinaryLocator.run(try Self.binary(), args)
                #expect(r.status == 0, "\(args): \(r.stderr)")
            }
            let a = FileManager.default.contents(atPath: c.a), b = FileManager.default.contents(atPath: c.b)
            #expect(a != nil && a == b, "\(c.a) and \(c.b) differ")
            // Both at once: one line naming both, and nothing written.
            let both = path("both" + (c.b as NSString).pathExtension)
            let message = try Self.failure(c.positional + ["--out", both])
            #expect(message.contains("--out") && message.contains(both) && message.contains(c.a), "\(message)")
            #expect(!FileManager.default.fileExists(atPath: both))
            // Neither: a line that asks for --out.
            #expect(try Self.failure(Array(c.positional.dropLast())).contains("--out"))
        }
    }

    @Test("export takes the scene group's --splat-budget and draws under it, as render does")
    func exportSplatBudget() throws {
        let bin = try Self.binary()
        let dir = TestData.temporaryDirectory("cli-forms")
        let ply = dir.appendingPathComponent("room.ply").path
        let g = try BinaryLocator.run(bin, ["generate", "20000", "--out", ply, "--scene", "room"])
        try #require(g.status == 0, "\(g.stderr)")
        let log = dir.appendingPathComponent("still.csv").path
        try Data("t,x,y,z\n0,0,0,0.6\n0.1,0,0,0.6\n".utf8).write(to: URL(fileURLWithPath: log))
        func export(_ budget: String) throws -> [UInt8] {
            let out = dir.appendingPathComponent("frames-\(budget)").path
            let r = try BinaryLocator.run(bin, ["export", ply, "--track", log, "--out", out, "--size", "96x54", "--max-frames", "1",
                                                "--threads", "1", "--quiet", "--splat-budget", budget], environment: BinaryLocator.hermetic())
            try #require(r.status == 0, "\(r.stderr)")
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/frame_00000.png")))
        }
        let whole = try export("none"), budgeted = try export("2000")
        #expect(whole != budgeted, "a 2000-splat budget drew the same frame as the whole 20000-splat capture")
        #expect(try export("2000") == budgeted, "the budgeted frame is not deterministic")
        // The level-of-detail options of the group reach export too.
        let bad = try Self.failure(["export", ply, "--track", log, "--out", dir.appendingPathComponent("bad").path, "--size", "16x9",
                                    "--max-frames", "1", "--quiet", "--lod", "9"])
        #expect(bad.contains("level 9"), "\(bad)")
    }

    @Test("convert --spz writes a .glb holding one SPZ payload; on any other output, or with --spz-version 4, it is one line")
    func convertSPZ() throws {
        let bin = try Self.binary()
        let dir = TestData.temporaryDirectory("cli-forms")
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let g = try BinaryLocator.run(bin, ["generate", "300", "--out", path("spz-in.ply")])
        try #require(g.status == 0, "\(g.stderr)")
        let c = try BinaryLocator.run(bin, ["convert", path("spz-in.ply"), path("spz-out.glb"), "--spz"])
        #expect(c.status == 0, "\(c.stderr)")
        let info = try BinaryLocator.run(bin, ["info", path("spz-out.glb")])
        #expect(info.stdout.contains("KHR_gaussian_splatting + SPZ") && info.stdout.contains("300 splats"), "\(info.stdout)")
        let notGLTF = try Self.failure(["convert", path("spz-in.ply"), path("spz-out.ply"), "--spz"])
        #expect(notGLTF.contains("--spz") && notGLTF.contains(".glb"), "\(notGLTF)")
        #expect(try Self.failure(["convert", path("spz-in.ply"), path("v4.glb"), "--spz", "--spz-version", "4"]).contains("version 3"))
        #expect(!FileManager.default.fileExists(atPath: path("spz-out.ply")) && !FileManager.default.fileExists(atPath: path("v4.glb")))
    }

    @Test("--help lists the words a typed option takes", arguments: [
        (["render"], "(values: anaglyph, anaglyph:plain, sbs, hsbs)"),
        (["render"], "(values: y, -y, z, -z, x, -x)"),
        (["bench"], "(values: lanes8, blocks)"),
        (["track", "webcam"], "(values: landmarker, blazeface, haar)"),
        (["track", "calibrate"], "(values: ipd, focal; default: ipd)"),
        (["convert"], "(values: 3, 4; default: 3)"),
        (["generate"], "(values: object, room; default: object)"),
    ])
    func helpListsValues(command: [String], listed: String) throws {
        let r = try BinaryLocator.run(try Self.binary(), command + ["--help"])
        #expect(r.status == 0)
        // Help wraps at 80 columns: compare with the wrapping removed.
        let flat = r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(flat.contains(listed), "\(command) --help does not list \(listed)")
    }

    @Test("shell completions offer a typed option's words")
    func completionsOfferValues() throws {
        let r = try BinaryLocator.run(try Self.binary(), ["--generate-completion-script", "bash"])
        #expect(r.status == 0)
        for word in ["landmarker", "anaglyph:plain", "lanes8", "oneeuro"] {
            #expect(r.stdout.contains("'\(word)'"), "the bash completions never offer \(word)")
        }
    }

    @Test("--detector is declared once: one help text on every command that takes it")
    func detectorDeclaredOnce() throws {
        var texts: Set<String> = []
        for command in [["cube"], ["config"], ["track", "webcam"], ["track", "calibrate"], ["track", "accuracy"]] {
            let r = try BinaryLocator.run(try Self.binary(), command + ["--help"])
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let starts = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("--detector <") }
            #expect(starts.count == 1, "\(command): \(starts.count) --detector entries")
            guard let i = starts.first else { continue }
            // The entry: its first line and the indented lines that continue it.
            var entry = [lines[i]]
            for line in lines[(i + 1)...] {
                guard line.hasPrefix("                    "), !line.trimmingCharacters(in: .whitespaces).hasPrefix("--") else { break }
                entry.append(line)
            }
            texts.insert(entry.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
        }
        #expect(texts.count == 1, "\(texts)")
    }
}
