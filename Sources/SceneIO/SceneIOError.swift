// SceneIO — SceneIOError: the one error type of the module; every case renders as one line.

/// Why a scene file could not be read or written. Every case names the file and where
/// (byte offset for binary data, 1-based line for text, or element row) and what was expected.
public enum SceneIOError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file could not be opened or read at all.
    case unreadable(file: String, reason: String)
    /// No reader recognises the bytes (and the extension does not help).
    case unknownFormat(file: String, found: String)
    /// A text line (header or ASCII body, 1-based) did not hold what was expected.
    case badLine(file: String, line: Int, expected: String, found: String)
    /// Binary data at a byte offset did not hold what was expected.
    case badBytes(file: String, offset: Int, expected: String, found: String)
    /// The data ends before what the header promises.
    case truncated(file: String, offset: Int, expected: String)
    /// A decoded value is invalid (index out of range, NaN position, …) in a row of an element.
    case badValue(file: String, element: String, row: Int, expected: String, found: String)
    /// The file asks for more memory than its size can justify.
    case tooLarge(file: String, offset: Int, expected: String, found: String)
    /// The scene kind cannot be written in the requested format.
    case unsupported(file: String, reason: String)
    /// Writing the output failed.
    case unwritable(file: String, reason: String)
    /// A long write or build was stopped before it finished (nothing was left under the name).
    case cancelled(file: String)
    /// A member of a container (a ZIP entry of a `.sog`, a file of an unbundled SOG folder, or a
    /// field of its `meta.json`) is missing or does not hold what was expected.
    case badEntry(file: String, entry: String, expected: String, found: String)
    /// The importer child process (glTF, FBX, COLLADA, 3DS through Assimp) refused the file,
    /// crashed on it or ran out of time; `reason` says which.
    case importFailed(file: String, reason: String)

    /// One line: `file: where: expected X, found Y`.
    public var description: String {
        switch self {
        case let .unreadable(f, r): return "\(f): cannot read: \(Self.clean(r, limit: 200))"
        case let .unknownFormat(f, found): return "\(f): unknown scene format (found \(Self.clean(found)); expected PLY, .splat, .ksplat, .spz, SOG, OBJ, STL, glTF, FBX, COLLADA or 3DS)"
        case let .badLine(f, l, e, found): return "\(f): line \(l): expected \(e), found \(Self.clean(found))"
        case let .badBytes(f, o, e, found): return "\(f): byte \(o): expected \(e), found \(Self.clean(found))"
        case let .truncated(f, o, e): return "\(f): byte \(o): file ends early; expected \(e)"
        case let .badValue(f, el, row, e, found): return "\(f): \(el) row \(row): expected \(e), found \(Self.clean(found))"
        case let .tooLarge(f, o, e, found): return "\(f): byte \(o): expected \(e), found \(Self.clean(found))"
        case let .unsupported(f, r): return "\(f): unsupported: \(Self.clean(r, limit: 200))"
        case let .cancelled(f): return "\(f): stopped before it was finished"
        case let .unwritable(f, r): return "\(f): cannot write: \(Self.clean(r, limit: 200))"
        case let .badEntry(f, entry, e, found): return "\(f): \(Self.clean(entry)): expected \(e), found \(Self.clean(found))"
        case let .importFailed(f, r): return "\(f): \(Self.plain(r))"
        }
    }

    /// Makes untrusted text printable on one short line (at most `limit` characters, then "…").
    /// Reasons SceneIO writes itself (`unsupported`, `unwritable`, `unreadable`) get 200.
    static func clean(_ s: String, limit: Int = 60) -> String {
        var out = ""
        for ch in s.unicodeScalars.prefix(limit) {
            out.unicodeScalars.append(ch.value >= 32 && ch.value < 127 ? ch : "?")
        }
        if s.unicodeScalars.count > limit { out += "…" }
        return out.isEmpty ? "nothing" : "\"\(out)\""
    }

    /// Untrusted text on one printable line of at most 300 characters, without quotes.
    static func plain(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars.prefix(300) { out.unicodeScalars.append(ch.value >= 32 && ch.value < 127 ? ch : "?") }
        return s.unicodeScalars.count > 300 ? out + "…" : out
    }

    /// Printable form of raw bytes (for "found" fields).
    static func show(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ n: Int = 16) -> String {
        guard offset >= 0, offset < bytes.count else { return "" }
        let end = min(bytes.count, offset + n)
        return String(decoding: bytes[offset..<end].map { $0 >= 32 && $0 < 127 ? $0 : 63 }, as: UTF8.self)
    }
}
