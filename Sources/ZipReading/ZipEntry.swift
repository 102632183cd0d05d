// ZipReading — ZipEntry: one entry of a ZIP file on disk (at most a cap), the rest of the file unread.
import Foundation

/// One entry of a ZIP file on disk (a model bundle, say).
public enum ZipEntry {
    /// The uncompressed bytes of entry `name` in the ZIP file at `path` (at most `cap` bytes).
    /// - Throws: `ZipError` naming the file and the entry.
    public static func read(_ name: String, inFile path: String, cap: Int) throws -> Data {
        try ZipArchive(path: path).read(name, cap: cap)
    }
}
