// SceneIO — SOGContainer: where a SOG's files come from (ZIP entries or a folder's files).
//
// Contract: `read` returns a member's bytes or throws `SceneIOError.badEntry` naming the
// container and the member; it never returns more than `cap` bytes and checks the size
// before reading.
import Foundation
import RenderCore
import ZipReading

/// The files of one SOG, looked up by the names its `meta.json` uses.
protocol SOGContainer {
    /// The container's name in errors: the `.sog` path or the folder.
    var file: String { get }
    /// The bytes of member `name`, at most `cap` of them.
    func read(_ name: String, cap: Int) throws -> Data
}

/// A bundled SOG: a ZIP archive (ZipReading) — a file read entry by entry, or bytes in memory —
/// its errors worded as SceneIO's.
struct SOGZip: SOGContainer {
    let archive: ZipArchive
    var file: String { archive.file }

    /// Opens the `.sog` file at `path`: its central directory now, each member when it is read,
    /// so the archive is never held whole.
    init(path: String) throws {
        do { archive = try ZipArchive(path: path) } catch let e as ZipError { throw SceneIOError(e) }
    }

    /// Opens the archive over `bytes`, which must outlive it (bytes from memory: a download, a fuzzer).
    init(bytes: UnsafeRawBufferPointer, file: String) throws {
        do { archive = try ZipArchive(bytes: bytes, file: file) } catch let e as ZipError { throw SceneIOError(e) }
    }

    func contains(_ name: String) -> Bool { archive.contains(name) }

    func read(_ name: String, cap: Int) throws -> Data {
        do { return try archive.read(name, cap: cap) } catch let e as ZipError { throw SceneIOError(e) }
    }
}

extension SceneIOError {
    /// ZipReading's error as SceneIO words it (a bundled .sog's bytes or one of its members).
    init(_ zip: ZipError) {
        switch zip {
        case let .unreadable(file, reason): self = .unreadable(file: file, reason: reason)
        case let .notAnArchive(file, reason): self = .badBytes(file: file, offset: 0, expected: "a ZIP archive (a bundled .sog)", found: reason)
        case let .badEntry(file, entry, expected, found): self = .badEntry(file: file, entry: entry, expected: expected, found: found)
        }
    }
}

/// An unbundled SOG: a folder holding `meta.json` and the images it names.
struct SOGFolder: SOGContainer {
    /// The folder's path as given.
    let file: String

    func read(_ name: String, cap: Int) throws -> Data {
        func fail(_ expected: String, _ found: String) -> SceneIOError {
            .badEntry(file: file, entry: name, expected: expected, found: found)
        }
        let path = (file as NSString).appendingPathComponent(name)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw fail("a file in the SOG folder", "no such file") }
        guard !isDir.boolValue else { throw fail("a file", "a folder") }
        let size = RegularFile.bytes(path) ?? 0
        guard size <= cap else { throw fail("at most \(cap) bytes", "\(size) bytes") }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            throw fail("a readable file", error.localizedDescription)
        }
        guard data.count <= cap else { throw fail("at most \(cap) bytes", "\(data.count) bytes") }
        return data
    }
}
