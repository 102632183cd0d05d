// ViewerTests — animated captures: frames found in a folder, a ZIP or a sequence JSON and ordered
// by the numbers in their names; the frame `render --time S` shows (⌊S·fps⌋, wrapping), through
// the Viewer API; play/pause/step; the decode-ahead's memory bound and order on a controlled
// clock (the test gives the times and waits on conditions); errors as one line.
import CZip
import Foundation
import RenderCore
import SceneIO
import SplatRender
import Procedural
import TestSupport
import Testing
import Workers
@testable import Viewer

@Suite struct SplatSequenceTests {
    static let screen = ScreenGeometry(width: 0.6, height: 0.34)

    /// A small frame: `count` splats (distinct per frame, so a frame is known by its count).
    static func cloud(_ count: Int, degree: Int = 0) -> SplatCloud {
        SplatSceneGenerator.object(count: count, seed: UInt64(count), shDegree: degree)
    }

    /// Writes `frames` (name → splat count) as PLYs into a fresh folder; returns its path.
    static func folder(_ name: String, _ frames: [(String, Int)]) throws -> String {
        let dir = TestData.temporaryDirectory(name)
        for (file, count) in frames {
            try SceneFile.save(.splats(cloud(count)), to: dir.appendingPathComponent(file).path)
        }
        return dir.path
    }

    @Test func namesOrderByTheirNumbers() throws {
        let names = ["frame_10.ply", "frame_2.ply", "frame_1.ply", "frame_0001b.ply", "a.ply"]
        #expect(names.sorted(by: SplatSequence.naturalOrder) == ["a.ply", "frame_1.ply", "frame_0001b.ply", "frame_2.ply", "frame_10.ply"])
        let dir = try Self.folder("seq-order", [("frame_2.ply", 24), ("frame_10.ply", 40), ("frame_1.ply", 16)])
        try Data("not a frame".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: dir + "/._frame_3.ply"))
        guard case .sequence(let p) = try SceneSource.resolve(dir) else { Issue.record("a folder of PLYs is not a sequence"); return }
        let s = try SplatSequence.open(p)
        #expect(s.frames.map(\.name) == ["frame_1.ply", "frame_2.ply", "frame_10.ply"])
        #expect(s.fps == SplatSequence.defaultFPS)
        #expect(try (0..<3).map { try s.decode($0).cloud.count } == [16, 24, 40])
    }

    @Test func zipOfFramesIsASequence() throws {
        let dir = TestData.temporaryDirectory("seq-zip")
        let zipPath = dir.appendingPathComponent("take.zip").path
        var err: Int32 = 0
        let za = try #require(zip_open(zipPath, ZIP_CREATE | ZIP_TRUNCATE, &err))
        for (name, count) in [("f_10.spz", 40), ("f_9.spz", 32), ("readme.txt", 0)] {
            let file = dir.appendingPathComponent(name).path
            if count > 0 { try SceneFile.save(.splats(Self.cloud(count)), to: file) } else { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
            let source = try #require(zip_source_file(za, file, 0, -1))
            try #require(zip_file_add(za, name, source, ZIP_FL_OVERWRITE) >= 0)
        }
        try #require(zip_close(za) == 0)
        guard case .sequence = try SceneSource.resolve(zipPath) else { Issue.record("a ZIP of frames is not a sequence"); return }
        let s = try SplatSequence.open(zipPath)
        #expect(s.frames == [.zipEntry(zip: zipPath, entry: "f_9.spz"), .zipEntry(zip: zipPath, entry: "f_10.spz")])
        #expect(try s.decode(1).cloud.count == 40)
    }

    @Test func jsonFormHasPathsBesideItAndItsRate() throws {
        let dir = try Self.folder("seq-json", [("a.ply", 16), ("b.ply", 24)])
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try SceneFile.save(.splats(Self.cloud(32)), to: dir + "/sub/c.ply")
        let json = dir + "/take.json"
        try Data(#"{"type": "sequence", "frames": ["b.ply", "sub/c.ply", "a.ply"], "fps": 12.5}"#.utf8).write(to: URL(fileURLWithPath: json))
        guard case .sequence(let s) = try SceneJSON.load(json) else { Issue.record("not read as a sequence"); return }
        #expect(s.frames == [.file(dir + "/b.ply"), .file(dir + "/sub/c.ply"), .file(dir + "/a.ply")])
        #expect(s.fps == 12.5 && s.duration == 3 / 12.5)
        let loader = try SceneLoader.load(path: json)
        #expect(try loader.scene(screen: Self.screen).primitiveCount == 24)
    }

    @Test func errorsAreOneLineNamingTheFile() throws {
        let dir = try Self.folder("seq-errors", [("a.ply", 16)])
        let empty = TestData.temporaryDirectory("seq-empty")
        try Data("x".utf8).write(to: empty.appendingPathComponent("notes.txt"))
        let json = dir + "/take.json"
        let cases: [(String, String, String)] = [
            (#"{"type": "sequence", "frames": ["a.ply", "gone.ply"]}"#, "gone.ply", "no such file"),
            (#"{"type": "sequence", "frames": ["a.ply"], "fps": 0}"#, "fps", "0 < fps ≤ 240"),
            (#"{"type": "sequence", "frames": ["a.ply"], "fps": 241}"#, "fps", "0 < fps ≤ 240"),
            (#"{"type": "sequence", "frames": []}"#, "frames", "splat file paths"),
        ]
        for (text, names, what) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: json))
            do {
                _ = try SceneLoader.load(path: json)
                Issue.record("\(text) was accepted")
            } catch {
                let line = "\(error)"
                #expect(line.contains(json) && line.contains(names) && line.contains(what) && !line.contains("\n"), "\(line)")
            }
        }
        do {
            _ = try SceneLoader.load(path: empty.path)
            Issue.record("a folder without splat files was accepted")
        } catch {
            let line = "\(error)"
            #expect(line.hasPrefix(empty.path) && line.contains("no splat files") && !line.contains("\n"), "\(line)")
        }
        // A frame that cannot be decoded: named, in one line, when it is due (frame-exact).
        try Data("ply\nformat nonsense\n".utf8).write(to: URL(fileURLWithPath: dir + "/b.ply"))
        try Data(#"{"type": "sequence", "frames": ["a.ply", "b.ply"], "fps": 10}"#.utf8).write(to: URL(fileURLWithPath: json))
        var options = SceneLoader.ModelOptions()
        options.videoPlayback = .frameExact
        let scene = try #require(try SceneLoader.load(path: json, options: options).scene(screen: Self.screen) as? SplatSequenceScene)
        scene.advance(to: 0)
        scene.advance(to: 0.1)
        let failure = try #require(scene.failure)
        #expect(failure.frame == 1 && failure.message.contains("b.ply") && !failure.message.contains("\n"), "\(failure.message)")
        #expect(scene.shownFrame == 0 && scene.statusLine?.contains("frame 2 failed") == true)
        #expect(scene.frameError.map { "\($0)" } == failure.message)   // what render and export stop with
    }

    /// `render --time S`: the scene advanced to the source's start, then drawn S seconds on.
    @Test func renderTimeChoosesFrameFloorOfTimesRateAndWraps() throws {
        let dir = try Self.folder("seq-time", [("f1.ply", 16), ("f2.ply", 24), ("f3.ply", 32)])
        let json = dir + "/take.json"
        try Data(#"{"type": "sequence", "frames": ["f1.ply", "f2.ply", "f3.ply"], "fps": 10}"#.utf8).write(to: URL(fileURLWithPath: json))
        var options = SceneLoader.ModelOptions()
        options.videoPlayback = .frameExact
        let loader = try SceneLoader.load(path: json, options: options)
        let counts = [16, 24, 32]
        var pictures: [Double: [UInt32]] = [:]
        for (time, frame) in [(0.0, 0), (0.099, 0), (0.1, 1), (0.29, 2), (0.3, 0), (0.45, 1), (1.5, 0), (2.25, 1), (0.1, 1)] {
            let scene = try #require(try loader.scene(screen: Self.screen) as? SplatSequenceScene)
            #expect(scene.sequence.frameIndex(at: time) == frame, "t = \(time)")
            let eye = FixedEyeSource(eye: Vec3(0, 0, 0.6))
            scene.advance(to: eye.sceneTime(frame: 0, view: eye.view(frame: 0)))
            let driver = FrameDriver(scene: scene, setup: ViewingSetup(screen: Self.screen),
                                     context: RenderContext(threads: 1), width: 64, height: 36)
            driver.renderFrame(from: TimeShiftedEyeSource(eye, by: time), index: 0)
            #expect(scene.shownFrame == frame && scene.primitiveCount == counts[frame], "t = \(time)")
            let image = driver.framebuffer.colorArray
            if let before = pictures[time] { #expect(before == image, "t = \(time) drew differently twice") }
            pictures[time] = image
        }
    }

    @Test func clockPlaysPausesAndSteps() {
        var c = SequenceClock(count: 5, fps: 10)
        #expect(c.advance(to: 100) == 0)          // time starts at the first time given
        #expect(c.advance(to: 100.25) == 2)
        #expect(c.advance(to: 100.5) == 0)        // wraps
        c.togglePlaying()
        #expect(!c.isPlaying && c.advance(to: 107) == 0)
        c.togglePlaying()                         // plays on from frame 0 at t = 107
        #expect(c.advance(to: 107.1) == 1)
        c.step(by: -2)
        #expect(!c.isPlaying && c.frame == 4 && c.advance(to: 200) == 4)
        c.step(by: 1)
        #expect(c.frame == 0)
        #expect(SequenceClock.frameIndex(position: -1, count: 5) == 4)
    }

    /// Frames of `counts` splats, prepared on demand; records the order they were decoded in.
    final class FakeFrames: Sendable {
        let counts: [Int]
        let log = Locked([Int]())
        /// Frames the test lets the decoder finish (nil: all).
        let released = Locked<Set<Int>?>(nil)
        let failing: Int?
        init(_ counts: [Int], failing: Int? = nil) { self.counts = counts; self.failing = failing }

        func decode(_ i: Int) throws -> sending PreparedSplats {
            released.wait(until: { $0?.contains(i) ?? true }, timeout: 60) { _, _ in }
            log.update { $0.append(i) }
            if i == failing { throw ViewerError.sceneLoad(path: "take", reason: "frame \(i + 1) (f\(i).ply): broken") }
            return SplatRenderer.prepare(SplatSequenceTests.cloud(counts[i]))
        }
        func release(_ frames: Int...) { released.update { $0 = ($0 ?? []).union(frames) } }
    }

    @Test func decodeAheadKeepsItsBoundAndDeliversEveryFrameInOrder() throws {
        let frames = FakeFrames([64, 72, 80, 88, 96, 104])
        let biggest = SplatRenderer.prepare(Self.cloud(104)).bytes
        let budget = biggest * 5 / 2
        let ahead = SequenceDecodeAhead(count: 6, budgetBytes: budget, decode: frames.decode)
        defer { ahead.stop() }
        for step in 0..<15 {
            let i = step % 6
            var got: SequenceDecodeAhead.Outcome?
            #expect(Wait.until { got = ahead.take(i); return got != nil }, "frame \(i) never decoded")
            guard case .ready(let s)? = got else { Issue.record("frame \(i) failed"); return }
            #expect(s.count == frames.counts[i])
            let f = ahead.figures
            #expect(f.cachedBytes <= budget && f.cachedFrames <= 3, "\(f)")
        }
        #expect(ahead.figures.peakBytes <= budget)
        let log = frames.log.withLock { $0 }
        // In playing order; a frame bigger than any before it may be dropped and decoded again
        // while sizes are being learnt (until the largest frame was decoded), never after.
        #expect(log.count >= 15 && zip(log, log.dropFirst()).allSatisfy { ($0 + 1) % 6 == $1 || $0 == $1 }, "out of order: \(log)")
        let learnt = try #require(log.firstIndex(of: 5))   // the largest frame: sizes known from here on
        #expect(zip(log[learnt...], log[(learnt + 1)...]).allSatisfy { ($0 + 1) % 6 == $1 }, "decoded twice once sizes were known: \(log)")
    }

    @Test func aLoopThatFitsIsDecodedOnceAndNeverWaits() throws {
        let frames = FakeFrames([16, 24, 32, 40])
        let ahead = SequenceDecodeAhead(count: 4, budgetBytes: 64 << 20, decode: frames.decode)
        defer { ahead.stop() }
        #expect(Wait.until { ahead.figures.cachedFrames == 4 })
        for step in 0..<12 { #expect(ahead.take(step % 4) != nil, "frame \(step % 4) not ready") }
        #expect(ahead.figures.decoded == 4)
    }

    /// The window's path: a due frame not yet decoded leaves the previous one (one stall); a frame
    /// that fails shows its error and playback goes on.
    @Test func lateFramesStallAndFailuresShowAsMessages() throws {
        let frames = FakeFrames([16, 24, 32, 40], failing: 2)
        frames.release(0)
        let sequence = SplatSequence(path: "take", frames: (0..<4).map { .file("f\($0).ply") }, fps: 10)
        let scene = SplatSequenceScene(name: "take", sequence: sequence, first: SplatRenderer.prepare(Self.cloud(16)),
                                       fit: SceneFit(bounds: Bounds(min: Vec3(-1, -1, -1), max: Vec3(1, 1, 1)), screen: Self.screen,
                                                     depth: 0.6),
                                       placement: Placement(up: .posY), budgetBytes: 64 << 20, decode: frames.decode)
        scene.advance(to: 50)
        scene.advance(to: 50.1)
        scene.advance(to: 50.15)
        #expect(scene.shownFrame == 0 && scene.stalls == 1)
        frames.release(1, 2, 3)
        #expect(Wait.until { scene.advance(to: 50.15); return scene.shownFrame == 1 })
        #expect(scene.primitiveCount == 24 && scene.stalls == 1 && scene.statusLine?.contains("1 late") == true)
        #expect(Wait.until { scene.advance(to: 50.2); return scene.failure != nil })
        #expect(scene.shownFrame == 1 && scene.statusLine?.contains("f2.ply): broken") == true)
        #expect(Wait.until { scene.advance(to: 50.3); return scene.shownFrame == 3 })
        scene.togglePlaying()
        scene.advance(to: 60)
        #expect(scene.shownFrame == 3 && scene.statusLine?.contains("paused") == true)
    }
}
