// ZipReading — ZipArchive: an archive opened read-only, over bytes in memory or a file on disk
// read entry by entry; an entry's bytes by name.
import CZip
import Foundation

/// A ZIP archive opened read-only: over bytes the caller keeps alive for the archive's lifetime
/// (`init(bytes:file:)`), or over a file read on demand (`init(path:)`: the central directory at
/// opening, then each entry's bytes only when it is read — never the whole file).
public final class ZipArchive {
    /// The libzip handle (freed by `zip_discard` in `deinit`).
    private let handle: OpaquePointer
    /// The file an archive opened from a path reads (released after `handle`).
    private let source: ZipFileSource?
    /// Archive name used in errors.
    public let file: String

    /// Bytes read from the archive's file so far (0 for an archive in memory): the central
    /// directory, then what the entries read needed.
    public var fileBytesRead: Int { source?.bytesRead ?? 0 }

    /// Opens the ZIP file at `path`, reading its central directory only; entries are read from
    /// the file when asked for (one at a time: an archive is not for concurrent use).
    /// - Throws: `ZipError.unreadable` when the file cannot be opened, `.notAnArchive` when
    ///   libzip does not recognise a ZIP archive.
    public init(path: String) throws {
        file = path
        let source = try ZipFileSource(path: path)
        var err = zip_error_t()
        zip_error_init(&err)
        defer { zip_error_fini(&err) }
        guard let zs = source.makeSource(&err) else {
            throw ZipError.unreadable(file: path, reason: "libzip: \(String(cString: zip_error_strerror(&err)))")
        }
        guard let archive = zip_open_from_source(zs, ZIP_RDONLY, &err) else {
            zip_source_free(zs)
            let code = zip_error_code_zip(&err)
            let reason = String(cString: zip_error_strerror(&err))
            if code == ZIP_ER_READ || code == ZIP_ER_SEEK { throw ZipError.unreadable(file: path, reason: reason) }
            throw ZipError.notAnArchive(file: path, reason: reason)
        }
        handle = archive
        self.source = source
    }

    /// Opens the archive's central directory.
    /// - Parameters:
    ///   - bytes: the whole archive; must stay valid until this object is released.
    ///   - file: name used in error messages.
    /// - Throws: `ZipError.notAnArchive` when libzip does not recognise a ZIP archive.
    public init(bytes: UnsafeRawBufferPointer, file: String) throws {
        self.file = file
        var err = zip_error_t()
        zip_error_init(&err)
        defer { zip_error_fini(&err) }
        guard let source = zip_source_buffer_create(bytes.baseAddress, UInt64(bytes.count), 0, &err) else {
            throw ZipError.unreadable(file: file, reason: "libzip: \(String(cString: zip_error_strerror(&err)))")
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, &err) else {
            zip_source_free(source)
            throw ZipError.notAnArchive(file: file, reason: String(cString: zip_error_strerror(&err)))
        }
        handle = archive
        self.source = nil
    }

    deinit { zip_discard(handle) }

    /// The names of the archive's entries, in directory order (folders end in `/`).
    /// - Throws: `ZipError.unreadable` when libzip cannot list the directory.
    public func entryNames() throws -> [String] {
        let n = zip_get_num_entries(handle, 0)
        guard n >= 0 else { throw ZipError.unreadable(file: file, reason: "libzip: \(String(cString: zip_strerror(handle)))") }
        return (0..<UInt64(n)).compactMap { i in zip_get_name(handle, i, 0).map { String(cString: $0) } }
    }

    /// True when the archive has an entry of exactly this name.
    public func contains(_ name: String) -> Bool { zip_name_locate(handle, name, 0) >= 0 }

    /// The uncompressed bytes of entry `name`.
    /// - Parameters:
    ///   - name: the entry's full name inside the archive (case-sensitive).
    ///   - cap: the most uncompressed bytes accepted; checked against the declared size before
    ///     inflating, and no more than the declared size is ever read.
    /// - Throws: `ZipError.badEntry` for a missing, encrypted, oversized, short, long or
    ///   corrupt entry.
    public func read(_ name: String, cap: Int) throws -> Data {
        func fail(_ expected: String, _ found: String) -> ZipError {
            .badEntry(file: file, entry: name, expected: expected, found: found)
        }
        let index = zip_name_locate(handle, name, 0)
        guard index >= 0 else { throw fail("a ZIP entry of that name", "no such entry") }
        var st = zip_stat_t()
        zip_stat_init(&st)
        guard zip_stat_index(handle, UInt64(index), 0, &st) == 0, st.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
            throw fail("a readable ZIP directory record", String(cString: zip_strerror(handle)))
        }
        if st.valid & UInt64(ZIP_STAT_ENCRYPTION_METHOD) != 0, st.encryption_method != UInt16(ZIP_EM_NONE) {
            throw fail("an unencrypted entry", "encryption method \(st.encryption_method)")
        }
        guard st.size <= UInt64(cap) else {
            throw fail("at most \(cap) uncompressed bytes", "\(st.size) bytes declared")
        }
        let size = Int(st.size)
        guard let entry = zip_fopen_index(handle, UInt64(index), 0) else {
            throw fail("an entry libzip can open", String(cString: zip_strerror(handle)))
        }
        defer { zip_fclose(entry) }
        var out = Data(count: size)
        var got = 0
        var failure: String? = nil
        out.withUnsafeMutableBytes { buf in
            while got < size {
                let n = zip_fread(entry, buf.baseAddress.map { $0 + got }, UInt64(size - got))
                if n < 0 { failure = String(cString: zip_file_strerror(entry)); return }
                if n == 0 { return }
                got += Int(n)
            }
        }
        if let f = failure { throw fail("valid compressed data", f) }
        guard got == size else { throw fail("\(size) bytes as its header declares", "only \(got)") }
        // One more read must hit the end: a deflate stream may lie about its size, and libzip
        // checks the CRC only when it reaches the end.
        var extra: UInt8 = 0
        let n = zip_fread(entry, &extra, 1)
        if n < 0 { throw fail("valid compressed data", String(cString: zip_file_strerror(entry))) }
        if n > 0 { throw fail("\(size) bytes as its header declares", "more data than that") }
        return out
    }
}
