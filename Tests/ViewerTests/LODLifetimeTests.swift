// A streamed SOG opened and closed in the window's mode (chunks streamed on a background
// thread) must leave nothing behind: its scene, chunk store, loader thread and decoded chunks go
// with it (the library and drops open and close many).
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RenderCore
import TestSupport
import Testing
@testable import SplatLOD
@testable import Viewer

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage), .serialized)
struct LODLifetimeTests {
    /// Opens the playbot streaming, draws until chunks stream in, drops it, and returns weak
    /// references to what should now be gone.
    static func openStreamAndClose() throws -> (scene: () -> AnyObject?, store: () -> AnyObject?) {
        let (scene, _) = try LODSceneTests.open(budget: 130_000, realtime: true, ownCoordinates: true)
        let fb = Framebuffer(width: 32, height: 18)
        let ctx = RenderContext(threads: 1)
        let camera = LODSceneTests.ownCamera(distance: 2.5, width: 32, height: 18)
        _ = scene.render(camera: camera, into: fb, context: ctx)
        #expect(Wait.until(timeout: 120) {
            _ = scene.render(camera: camera, into: fb, context: ctx)
            return scene.store.progress().loads > 0
        }, "no chunk streamed in")
        weak var weakScene = scene
        weak var weakStore = scene.store
        return ({ weakScene }, { weakStore })
    }

    @Test("a closed streamed SOG lets go of its store, loader thread and chunks")
    func closedSceneIsFreed() throws {
        let refs = try Self.openStreamAndClose()
        #expect(refs.scene() == nil, "the scene outlived its last reference")
        // The loader thread ends when it sees the stop (it may be finishing a chunk): wait for it.
        #expect(Wait.until(timeout: 60) { refs.store() == nil }, "the chunk store (and its decoded chunks) outlived the scene")
    }

    /// Resident memory is the process's, and other suites run beside this one: so the twenty
    /// opens and closes run in a child process of the test bundle (this suite's `child` test),
    /// alone, and report their resident memory through a file.
    @Test("twenty streamed opens and closes keep resident memory flat (measured in a process of its own)")
    func twentyOpensFlatMemory() throws {
        // Sanitizers keep freed memory in quarantine (ASan: 256 MB) and slow a child run many times:
        // there the weak-reference test above is the test.
        guard ProcessInfo.processInfo.environment["SPLATFRAME_SANITIZED"] == nil else { return }
        let report = TestData.temporaryDirectory("lod-memory").appendingPathComponent("rss.txt")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        p.arguments = ["--testing-library", "swift-testing", "--filter", "LODLifetimeTests/child"]
        var env = ProcessInfo.processInfo.environment
        env["SPLATFRAME_LOD_MEMORY_REPORT"] = report.path
        p.environment = env
        let log = report.deletingLastPathComponent().appendingPathComponent("child.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let out = try FileHandle(forWritingTo: log)
        p.standardOutput = out
        p.standardError = out
        try p.run()
        p.waitUntilExit()
        try? out.close()
        let tail = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(8).joined(separator: "\n")
        #expect(p.terminationStatus == 0, "the child test run failed (status \(p.terminationStatus)): \(tail)")
        let mb = try String(contentsOf: report, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
        try #require(mb.count == 3, "no report from the child: \(mb)")
        print("resident memory after 4, 12 and 20 streamed opens and closes: \(mb[0]), \(mb[1]), \(mb[2]) MB")
        // One open decodes ~17 MB of chunks: a leak would add ~136 MB over the last eight.
        #expect(mb[2] - mb[1] < 48, "resident memory grew by \(mb[2] - mb[1]) MB over the last eight opens and closes")
    }

    /// The child's side: runs only in the process `twentyOpensFlatMemory` starts.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SPLATFRAME_LOD_MEMORY_REPORT"] != nil))
    func child() throws {
        let report = try #require(ProcessInfo.processInfo.environment["SPLATFRAME_LOD_MEMORY_REPORT"])
        var weakStores: [() -> AnyObject?] = []
        var resident: [Int] = []
        for round in [4, 8, 8] {
            for _ in 0..<round { weakStores.append(try Self.openStreamAndClose().store) }
            #expect(Wait.until(timeout: 120) { weakStores.allSatisfy { $0() == nil } }, "a chunk store outlived its scene")
            resident.append(ResidentMemory.bytes() >> 20)
        }
        try resident.map(String.init).joined(separator: " ").write(toFile: report, atomically: true, encoding: .utf8)
    }
}

/// This process's resident set size, from /proc/self/statm, after the allocator has returned
/// its free memory to the system (`malloc_trim`).
enum ResidentMemory {
    static func bytes() -> Int {
        // glibc's malloc_trim (not in Swift's Glibc module): free pages back to the system.
        if let sym = dlsym(nil /* RTLD_DEFAULT */, "malloc_trim") {
            _ = unsafeBitCast(sym, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
