// ZipReading — ZipFileSource: a libzip source over a file on disk read with `pread`, a block at
// a time as libzip asks, counting the bytes it reads — so an archive opened from a path is never
// held whole, and tests can see that reading one entry reads little more than that entry.
import CZip
import Foundation

/// The file behind a `ZipArchive(path:)`: an open descriptor, libzip's read position, and the
/// bytes read so far. Owned by its archive, which discards libzip's handle before this is freed
/// (the descriptor is closed in `deinit`).
final class ZipFileSource {
    let fd: Int32
    let size: Int64
    /// libzip's read position, bytes.
    private var offset: Int64 = 0
    /// Bytes read from the file so far.
    private(set) var bytesRead = 0
    private var error = zip_error_t()

    /// Opens `path` for reading.
    /// - Throws: `ZipError.unreadable` when it cannot be opened or is not a regular file.
    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipError.unreadable(file: path, reason: Self.posix(errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw ZipError.unreadable(file: path, reason: Self.posix(e))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ZipError.unreadable(file: path, reason: "not a regular file")
        }
        self.fd = fd
        size = Int64(st.st_size)
        zip_error_init(&error)
    }

    deinit {
        zip_error_fini(&error)
        close(fd)
    }

    /// A libzip source calling back into this object (which must outlive it).
    func makeSource(_ err: inout zip_error_t) -> OpaquePointer? {
        zip_source_function_create(ZipFileSource.callback, Unmanaged.passUnretained(self).toOpaque(), &err)
    }

    /// libzip's commands for a seekable, read-only source.
    private static let callback: zip_source_callback = { user, data, len, cmd in
        Unmanaged<ZipFileSource>.fromOpaque(user!).takeUnretainedValue().handle(data, len, cmd)
    }

    private static let supported: Int64 = [ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                                            ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS]
        .reduce(0) { $0 | (1 << Int64($1.rawValue)) }

    private func handle(_ data: UnsafeMutableRawPointer?, _ len: UInt64, _ cmd: zip_source_cmd_t) -> Int64 {
        switch cmd {
        case ZIP_SOURCE_OPEN: offset = 0; return 0
        case ZIP_SOURCE_READ:
            guard let data else { zip_error_set(&error, ZIP_ER_INVAL, 0); return -1 }
            let want = Int(min(len, UInt64(max(0, size - offset)), 1 << 30))
            var got = 0
            while got < want {
                let n = pread(fd, data + got, want - got, off_t(offset) + off_t(got))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { zip_error_set(&error, ZIP_ER_READ, errno); return -1 }
                if n == 0 { break }
                got += n
            }
            offset += Int64(got)
            bytesRead += got
            return Int64(got)
        case ZIP_SOURCE_CLOSE: return 0
        case ZIP_SOURCE_STAT:
            guard let data, len >= UInt64(MemoryLayout<zip_stat_t>.size) else { zip_error_set(&error, ZIP_ER_INVAL, 0); return -1 }
            let st = data.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(st)
            st.pointee.size = UInt64(size)
            st.pointee.valid |= UInt64(ZIP_STAT_SIZE)
            return Int64(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_ERROR:
            guard let data else { return -1 }
            return zip_error_to_data(&error, data, len)
        case ZIP_SOURCE_FREE: return 0   // the archive owns this object
        case ZIP_SOURCE_SEEK:
            guard let data else { zip_error_set(&error, ZIP_ER_INVAL, 0); return -1 }
            let new = zip_source_seek_compute_offset(UInt64(offset), UInt64(size), data, len, &error)
            guard new >= 0 else { return -1 }
            offset = new
            return 0
        case ZIP_SOURCE_TELL: return offset
        case ZIP_SOURCE_SUPPORTS: return Self.supported
        default:
            zip_error_set(&error, ZIP_ER_OPNOTSUPP, 0)
            return -1
        }
    }

    static func posix(_ code: Int32) -> String { code == ENOENT ? "no such file" : String(cString: strerror(code)) }
}
