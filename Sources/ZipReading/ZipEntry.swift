// ZipReading — ZipEntry: one entry of a ZIP file on disk, read whole (at most a cap).
import Foundation

/// One entry of a ZIP file on disk (a model bundle, say).
public enum ZipEntry {
    /// The uncompressed bytes of entry `name` in the ZIP file at `path` (at most `cap` bytes).
    /// - Throws: `ZipError` naming the file and the entry.
    public static func read(_ name: String, inFile path: String, cap: Int) throws -> Data {
        let bytes: Data
        do { bytes = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ZipError.unreadable(file: path, reason: error.localizedDescription)
        }
        return try bytes.withUnsafeBytes { raw in try ZipArchive(bytes: raw, file: path).read(name, cap: cap) }
    }
}
