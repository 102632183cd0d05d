import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

/// The real binary, run as a user would: exit codes, one-line errors, headless output.
@Suite("Command line")
struct CommandLineTests {
    static func binary() throws -> String {
        try #require(BinaryLocator.splatframe(), "build the package first (swift build): no .build/*/splatframe")
    }

    @Test("bad input gives a one-line error and exit code 2", arguments: [
        (["render", "--eye", "0,0,-0.5", "--out", "/tmp/x.png"], "--eye"),
        (["render", "--eye", "0,0,0.6", "--size", "0x720", "--out", "/tmp/x.png"], "--size"),
        (["render", "--eye", "0,0,0.6", "--size", "huge", "--out", "/tmp/x.png"], "--size"),
        (["render", "--eye", "0,0,0.6", "--back", "/nonexistent/picture.png", "--out", "/tmp/x.png"], "/nonexistent/picture.png"),
        (["render", "--camera", "/nonexistent/cam.json", "--out", "/tmp/x.png"], "/nonexistent/cam.json"),
        (["render", "--out", "/tmp/x.png"], "--eye"),
        (["frustum", "--eye", "1,2"], "--eye"),
        (["open", "/nonexistent/scene.json"], "no such file"),
        (["render", "--eye", "0,0,0.6", "--back", "/nonexistent/clip.mp4", "--out", "/tmp/x.png"], "/nonexistent/clip.mp4: no such file"),
        // Without a display: the video's error, not the window's, so it comes before any window opens.
        (["cube", "--left", "/nonexistent/clip.mkv"], "/nonexistent/clip.mkv: no such file"),
        (["bench", "sphere:100", "--back", "/nonexistent/clip.mp4"], "room options apply where the room is the scene"),
    ])
    func badInput(arguments: [String], mentions: String) throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        let r = try BinaryLocator.run(try Self.binary(), arguments, environment: env)
        #expect(r.status == 2, "exit \(r.status): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains(mentions), "stderr: \(r.stderr)")
    }

    @Test("a malformed camera file is reported with its name and the problem")
    func malformedCamera() throws {
        let dir = TestData.temporaryDirectory()
        let cam = dir.appendingPathComponent("cam.json")
        try Data("{\"width\":640,\"height\":360,\"view\":[1,2,3]}".utf8).write(to: cam)
        let r = try BinaryLocator.run(try Self.binary(), ["render", "--camera", cam.path, "--out", dir.appendingPathComponent("o.png").path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cam.json") && r.stderr.contains("view: expected 16 numbers, found an array of 3"), "\(r.stderr)")
    }

    @Test("without a display the window command says to use render or set DISPLAY")
    func noDisplay() throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil; env["WAYLAND_DISPLAY"] = nil
        let r = try BinaryLocator.run(try Self.binary(), ["cube"], environment: env)
        #expect(r.status == 2)
        #expect(r.stderr.contains("splatframe render") && r.stderr.contains("DISPLAY"), "\(r.stderr)")
    }

    @Test("frustum prints column-major projection and view matrices")
    func frustum() throws {
        let r = try BinaryLocator.run(try Self.binary(), ["frustum", "--eye", "0.1,0.05,0.5", "--screen-mm", "600,340", "--near", "0.1", "--far", "10"])
        #expect(r.status == 0)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [Double]])
        let p = try #require(obj["projection"]), v = try #require(obj["view"])
        #expect(p.count == 16 && v.count == 16)
        // glFrustum: P[0][0] = 2n/(r−l) = 2·0.1/((0.6)·0.1/0.5) = 1/0.6; P[0][2] (column 2, row 0) = (r+l)/(r−l).
        #expect(abs(p[0] - 1 / 0.6) < 1e-5)
        #expect(abs(p[8] - (-0.1 * 2 / 0.6)) < 1e-5)   // (r+l)/(r−l) = −2·x/W
        #expect(p[11] == -1 && p[15] == 0)
        #expect(v[12] == -0.1 && v[13] == -0.05 && v[14] == -0.5)
    }

    @Test("render writes a PNG and a PFM depth map of the cube room")
    func headlessRender() throws {
        let dir = TestData.temporaryDirectory()
        let png = dir.appendingPathComponent("room.png").path, pfm = dir.appendingPathComponent("room.pfm").path
        let r = try BinaryLocator.run(try Self.binary(), ["render", "--eye", "0,0,0.6", "--size", "320x180", "--out", png, "--depth-out", pfm])
        #expect(r.status == 0, "\(r.stderr)")
        let img = try ImageFile.load(png)
        #expect(img.width == 320 && img.height == 180)
        let depth = try PFMFile.load(pfm)
        #expect(depth.width == 320 && depth.height == 180)
        // Centre pixel: the back wall 0.6 m behind the screen, the eye 0.6 m in front → 1.2 m (unless a target is there).
        let centreRowBottom = depth.values[(180 - 1) * 320 + 160]   // floor, nearer
        #expect(centreRowBottom.isFinite && centreRowBottom < 1.2)
        #expect(depth.values.allSatisfy { $0.isFinite && $0 > 0.5 && $0 <= 1.21 }, "the room closes every pixel")
    }
}

/// README's controls table is the window's key-binding table, printed by the binary.
@Suite("README controls")
struct ReadmeControlsTests {
    @Test("README's controls table equals `splatframe controls --markdown`")
    func readmeMatchesBindings() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let r = try BinaryLocator.run(binary, ["controls", "--markdown"])
        #expect(r.status == 0)
        let readme = try String(contentsOf: TestData.projectRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = try #require(lines.firstIndex(of: "<!-- controls:begin -->"), "README has no <!-- controls:begin --> line")
        let end = try #require(lines.firstIndex(of: "<!-- controls:end -->"), "README has no <!-- controls:end --> line")
        let table = lines[(begin + 1)..<end].joined(separator: "\n")
        #expect(table == r.stdout.trimmingCharacters(in: .newlines),
                "README's controls differ from the key bindings: replace the block with `splatframe controls --markdown`")
    }
}
