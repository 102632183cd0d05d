// SplatLOD — OutOfCoreWork: the out-of-core build's working folder, `.NAME.lod-build` beside the
// output folder NAME: `key` (what the files were made from: a different key empties the folder),
// the records and markers (`DiskPartition`, `RegionResult`), `chunks/` (a file per chunk written)
// and `out/` (the streamed SOG being written, renamed to NAME when whole).
import Foundation
import RenderCore
import SceneIO

/// The working folder of one out-of-core build.
struct OutOfCoreWork {
    /// The working folder.
    let folder: String
    /// The streamed SOG's folder being written, and the markers of its chunks.
    var out: String { folder + "/out" }
    var chunkMarks: String { folder + "/chunks" }
    let key: String

    /// The working folder of the build writing `outputFolder`.
    init(folder outputFolder: String, key: String) {
        let parent = (outputFolder as NSString).deletingLastPathComponent
        folder = (parent.isEmpty ? "." : parent) + "/.\((outputFolder as NSString).lastPathComponent).lod-build"
        self.key = key
    }

    func path(_ name: String, _ ext: String) -> String { folder + "/" + name + "." + ext }

    /// Keeps the folder when its key is this build's; else starts it afresh.
    func prepare() throws {
        let fm = FileManager.default
        let keyPath = folder + "/key"
        if let old = fm.contents(atPath: keyPath), String(decoding: old, as: UTF8.self) == key { return }
        do {
            try? fm.removeItem(atPath: folder)
            try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
            try fm.createDirectory(atPath: chunkMarks, withIntermediateDirectories: true)
            try Data(key.utf8).write(to: URL(fileURLWithPath: keyPath))
        } catch {
            throw LODBuildError.workFile(path: folder, reason: error.localizedDescription)
        }
    }

    /// Writes `stream`'s splats, read `blockSplats` at a time, as the records `r.rec` (indices in
    /// capture order) and `r.info`.
    func ingest(_ stream: any SplatStream, blockSplats: Int, cancelled: (@Sendable () -> Bool)?, progress: (Int, Int) -> Void) throws {
        let records = SplatRecords(shDegree: stream.shDegree)
        guard stream.count < Int(UInt32.max) else {
            throw SceneIOError.unsupported(file: folder, reason: "more than \(UInt32.max) splats")
        }
        let writer = try RecordFileWriter(path("r", "rec"))
        var box = Bounds.empty, done = 0
        while let block = try stream.next(maxSplats: max(1, blockSplats)) {
            if cancelled?() == true { throw LODBuildError.cancelled }
            let first = done
            try writer.append(block, records: records) { UInt32(first + $0) }
            for p in block.positions { box = box.including(p) }
            done += block.count
            progress(done, stream.count)
        }
        try writer.finish()
        try RecordFileInfo(count: done, shDegree: stream.shDegree, bounds: box).write(path("r", "info"))
    }

    /// Whether chunk `name` (`L_I/meta.json`) was written, and marks it so.
    func chunkWritten(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: chunkMarks + "/" + (name as NSString).deletingLastPathComponent)
    }

    func markChunk(_ name: String) throws {
        let mark = chunkMarks + "/" + (name as NSString).deletingLastPathComponent
        guard FileManager.default.createFile(atPath: mark, contents: Data()) else {
            throw LODBuildError.workFile(path: mark, reason: "cannot be created")
        }
    }

    /// Writes lod-meta.json into `out`, puts `out` in place of `target` (which must be absent,
    /// empty or a streamed SOG) and removes the working folder.
    func finish(meta: String, metaName: String, into target: String, metaPath: String) throws {
        let fm = FileManager.default
        do {
            try Data(meta.utf8).write(to: URL(fileURLWithPath: out + "/" + metaName))
            try StreamedSOGWriter.checkReplaceable(target, metaPath: metaPath)
            if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
            try fm.moveItem(atPath: out, toPath: target)
        } catch let e as SceneIOError {
            throw e
        } catch {
            throw SceneIOError.unwritable(file: metaPath, reason: (error as NSError).localizedDescription)
        }
        try? fm.removeItem(atPath: folder)
    }
}
