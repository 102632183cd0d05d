// `splatframe setup webcam` through the real binary: it says what it would download, from where
// and how big, and downloads nothing unless asked (not a terminal and no --yes: a one-line
// error); files already there are recognised. No network is used.
import Foundation
import TestSupport
import Testing

struct SetupCommandTests {
    @Test func itSaysWhatAndAsksBeforeDownloading() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let cache = TestData.temporaryDirectory("setup-webcam")
        var env = BinaryLocator.hermetic()
        env["XDG_CACHE_HOME"] = cache.path
        env["SPLATFRAME_CACHE_DIR"] = nil
        env["SPLATFRAME_WEBCAM_DIR"] = cache.path + "/splatframe/webcam"   // else the tests point it at the real cache
        let r = try BinaryLocator.run(bin, ["setup", "webcam"], environment: env)
        #expect(r.status != 0 && r.stderr.contains("--yes") && r.stderr.split(separator: "\n").count == 1, "\(r.status) \(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("libmediapipe.so  127.3 MB") && r.stdout.contains("PyPI") && r.stdout.contains(cache.path + "/splatframe/webcam"),
                "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cache.path + "/splatframe/webcam"), "something was written before asking")

        // Files of the pinned sizes (sparse) are recognised as present.
        let dir = cache.appendingPathComponent("splatframe/webcam")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, size) in [("libmediapipe.so", 127_305_664), ("face_detection_short_range.tflite", 229_714),
                             ("face_detection_full_range_sparse.tflite", 676_746), ("face_landmarker.task", 3_758_596)] {
            FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil)
            let h = try FileHandle(forWritingTo: dir.appendingPathComponent(name))
            try h.truncate(atOffset: UInt64(size)); try h.close()
        }
        let again = try BinaryLocator.run(bin, ["setup", "webcam"], environment: env)
        #expect(again.status == 0 && again.stdout.contains("already in"), "\(again.stdout)\(again.stderr)")
    }
}
