// SceneIO — ReadOnlyFile: what the row-reading streams share (`PLYSplatStream`, `PLYRowStream`,
// `SplatRecordStream`): a regular file opened for `pread` with its first bytes read, and reads
// of exact lengths that retry short reads and EINTR. The descriptor closes with the object.
import Foundation

/// A regular file open read-only, read in place with `pread` (nothing mapped).
final class ReadOnlyFile {
    /// The path, for errors.
    let path: String
    let fd: Int32
    /// Bytes in the file when it was opened.
    let size: Int
    /// Its first bytes (up to the `headBytes` asked for; fewer when the file is shorter).
    let head: [UInt8]

    /// `path` opened, its first `headBytes` bytes read; nil when it is not a regular file (a
    /// folder, a device) or its start cannot be read.
    /// - Throws: `SceneIOError.unreadable` when it cannot be opened (missing, no permission).
    static func open(_ path: String, headBytes: Int) throws -> ReadOnlyFile? {
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SceneIOError.unreadable(file: path, reason: FileManager.default.fileExists(atPath: path) ? String(cString: strerror(errno)) : "no such file")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { Foundation.close(fd); return nil }
        let size = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: min(size, max(0, headBytes)))
        guard head.withUnsafeMutableBytes({ SpooledColumns.pread(fd, $0.baseAddress!, $0.count, at: 0) }) == head.count else {
            Foundation.close(fd); return nil
        }
        return ReadOnlyFile(path: path, fd: fd, size: size, head: head)
    }

    private init(path: String, fd: Int32, size: Int, head: [UInt8]) {
        self.path = path; self.fd = fd; self.size = size; self.head = head
    }

    deinit { Foundation.close(fd) }

    /// Reads exactly `n` bytes at `offset` into `to`.
    /// - Throws: `SceneIOError.truncated` naming the file, where the bytes ran out and `expected`.
    func read(into to: UnsafeMutableRawPointer, _ n: Int, at offset: Int, expected: @autoclosure () -> String) throws {
        let got = SpooledColumns.pread(fd, to, n, at: offset)
        guard got == n else {
            throw got < 0 ? SceneIOError.unreadable(file: path, reason: String(cString: strerror(errno)))
                          : SceneIOError.truncated(file: path, offset: offset + got, expected: expected())
        }
    }
}
