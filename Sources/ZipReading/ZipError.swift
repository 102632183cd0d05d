// ZipReading — ZipError: the module's one error type.

/// What went wrong reading a ZIP archive; every case names the archive (`file`).
public enum ZipError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The archive's bytes could not be read or handed to libzip.
    case unreadable(file: String, reason: String)
    /// The bytes are not a ZIP archive libzip recognises; `reason` is libzip's.
    case notAnArchive(file: String, reason: String)
    /// Entry `entry` is missing, encrypted, over the cap, short, long or corrupt.
    case badEntry(file: String, entry: String, expected: String, found: String)

    public var description: String {
        switch self {
        case let .unreadable(file, reason): return "\(file): cannot read: \(reason)"
        case let .notAnArchive(file, reason): return "\(file): not a ZIP archive (\(reason))"
        case let .badEntry(file, entry, expected, found): return "\(file): \(entry): expected \(expected), found \(found)"
        }
    }
}
