// SceneIO — ZipArchive: read-only access to a ZIP archive in memory through libzip.
//
// Job: find an entry by name and return its uncompressed bytes (stored or deflated; whatever
// the system libzip can inflate).
// Contract: memory is bounded by the caller's cap — an entry whose declared size exceeds the
// cap is rejected before any inflating, and the declared size is never trusted: at most that
// many bytes are read, then one more read must find the end (libzip checks the CRC there).
// Errors are `SceneIOError.badEntry` / `.badBytes` naming the archive and the entry.
import CZip
import Foundation

/// A ZIP archive opened read-only over bytes the caller keeps alive for the archive's lifetime.
final class ZipArchive {
    /// The libzip handle (freed by `zip_discard` in `deinit`).
    private let handle: OpaquePointer
    /// Archive name used in errors.
    let file: String

    /// Opens the archive's central directory.
    /// - Parameters:
    ///   - bytes: the whole archive; must stay valid until this object is released.
    ///   - file: name used in error messages.
    /// - Throws: `SceneIOError.badBytes` when libzip does not recognise a ZIP archive.
    init(bytes: UnsafeRawBufferPointer, file: String) throws {
        self.file = file
        var err = zip_error_t()
        zip_error_init(&err)
        defer { zip_error_fini(&err) }
        guard let source = zip_source_buffer_create(bytes.baseAddress, UInt64(bytes.count), 0, &err) else {
            throw SceneIOError.unreadable(file: file, reason: "libzip: \(String(cString: zip_error_strerror(&err)))")
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, &err) else {
            zip_source_free(source)
            throw SceneIOError.badBytes(file: file, offset: 0, expected: "a ZIP archive (a bundled .sog)",
                                        found: String(cString: zip_error_strerror(&err)))
        }
        handle = archive
    }

    deinit { zip_discard(handle) }

    /// True when the archive has an entry of exactly this name.
    func contains(_ name: String) -> Bool { zip_name_locate(handle, name, 0) >= 0 }

    /// The uncompressed bytes of entry `name`.
    /// - Parameters:
    ///   - name: the entry's full name inside the archive (case-sensitive).
    ///   - cap: the most uncompressed bytes accepted; checked against the declared size before
    ///     inflating, and no more than the declared size is ever read.
    /// - Throws: `SceneIOError.badEntry` for a missing, encrypted, oversized, short, long or
    ///   corrupt entry.
    func read(_ name: String, cap: Int) throws -> Data {
        func fail(_ expected: String, _ found: String) -> SceneIOError {
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

/// One entry of a ZIP file on disk, for readers outside SceneIO (e.g. a model bundle).
public enum ZipEntry {
    /// The uncompressed bytes of entry `name` in the ZIP file at `path` (at most `cap` bytes).
    /// - Throws: `SceneIOError` naming the file and the entry.
    public static func read(_ name: String, inFile path: String, cap: Int) throws -> Data {
        let bytes: Data
        do { bytes = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SceneIOError.unreadable(file: path, reason: error.localizedDescription)
        }
        return try bytes.withUnsafeBytes { raw in try ZipArchive(bytes: raw, file: path).read(name, cap: cap) }
    }
}
