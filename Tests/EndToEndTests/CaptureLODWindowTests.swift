// A plain capture under a splat budget in the real window (Xvfb): drawn whole while its levels of
// detail are built in the background, swapped in when ready and cached under $XDG_CACHE_HOME;
// opened again, the tree comes from the cache at once (no build).
import Foundation
import TestSupport
import Testing

@Suite("levels of detail in the window under Xvfb", .serialized)
struct CaptureLODWindowTests {
    @Test func builtInTheBackgroundThenFromTheCache() throws {
        let binary = try #require(BinaryLocator.splatframe(), "build the package first")
        let dir = TestData.temporaryDirectory("capture-lod-window")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ply = dir.appendingPathComponent("blob.ply").path
        let gen = try BinaryLocator.run(binary, ["generate", "6000", ply])
        try #require(gen.status == 0, "\(gen.stderr)")
        let cache = dir.appendingPathComponent("xdg-cache").path
        let args = ["open", ply, "--splat-budget", "2000", "--size", "320x180", "--screen-mm", "600,340", "--eye", "0,0,0.6"]

        let first = try RunningWindow(args, environment: ["XDG_CACHE_HOME": cache])
        _ = try first.windowID()
        #expect(first.waitFor(120) { first.stderr.contains("levels of detail ready for blob.ply") }, "\(first.stderr)")
        let log1 = try first.finish()
        #expect(log1.contains("building levels of detail for blob.ply"), "\(log1)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache + "/splatframe/lod").filter { !$0.hasPrefix(".") }
        #expect(entries.count == 1, "\(entries)")

        let second = try RunningWindow(args, environment: ["XDG_CACHE_HOME": cache])
        _ = try second.windowID()
        #expect(second.waitForStartup(), "\(second.stderr)")
        let log2 = try second.finish()
        #expect(log2.contains("levels of detail for \(ply) from the cache") && !log2.contains("building levels"), "\(log2)")
    }
}
