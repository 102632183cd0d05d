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

    @Test("opening and closing a streamed SOG twenty times keeps resident memory flat")
    func twentyOpensFlatMemory() throws {
        var weakStores: [() -> AnyObject?] = []
        // The first opens warm the allocator and the file cache; memory is measured from there.
        for _ in 0..<8 { weakStores.append(try Self.openStreamAndClose().store) }
        #expect(Wait.until(timeout: 60) { weakStores.allSatisfy { $0() == nil } })
        let first = ResidentMemory.bytes()
        for _ in 0..<12 { weakStores.append(try Self.openStreamAndClose().store) }
        #expect(Wait.until(timeout: 120) { weakStores.allSatisfy { $0() == nil } }, "a chunk store outlived its scene")
        let last = ResidentMemory.bytes()
        let growth = last - first
        // One open decodes ~17 MB of chunks: a leak of one per open would add ~200 MB.
        print("resident memory: \(first >> 20) MB after eight opens and closes, \(last >> 20) MB after twenty")
        // Sanitizers keep freed memory in quarantine (ASan: 256 MB): there the weak references above are the test.
        if ProcessInfo.processInfo.environment["SPLATFRAME_SANITIZED"] == nil {
            #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MB over 12 more opens and closes")
        }
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
