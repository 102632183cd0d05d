// JSONInput — the one way SplatFrame reads JSON documents (camera files, scene files, the
// config, SOG and streamed-SOG meta). A `JSONNode` is a parsed value plus its key path from
// the document's root (`walls.back`, `view[3]`, `tree.children[0].lods.2.count`); every typed
// accessor checks shape and range and throws a `JSONPathError` naming that path, what was
// expected and what was found. Callers wrap the error with their file name. No dependencies.
import Foundation

/// Why a JSON document was refused: where (`path`, empty for the whole document), what was
/// expected there, and what was found (a short, one-line description).
public struct JSONPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Key path from the root (`means.mins[1]`); empty for the document itself.
    public var path: String
    public var expected: String
    public var found: String

    public init(path: String, expected: String, found: String) {
        self.path = path; self.expected = expected; self.found = found
    }

    /// `path: expected E, found F` (or `expected E, found F` at the root), on one line.
    public var description: String {
        let body = "expected \(expected), found \(found)"
        return path.isEmpty ? body : "\(shortPath): \(body)"
    }

    /// The path, long ones cut in the middle (start and end kept) so the message stays one line.
    public var shortPath: String {
        path.count > 64 ? String(path.prefix(24)) + "…" + String(path.suffix(38)) : path
    }
}

/// One value of a parsed JSON document and where it sits in it.
public struct JSONNode {
    /// Largest magnitude a number may have (keeps exp() and lerps of read values finite).
    public static let maxMagnitude = 1e30

    /// The value as `JSONSerialization` gives it (`NSNull` for null).
    public let value: Any
    /// Key path from the root; "" for the root.
    public let path: String

    public init(value: Any, path: String = "") { self.value = value; self.path = path }

    /// Parses a whole document. Invalid JSON throws with an empty path and the parser's detail.
    public static func parse(_ data: Data) throws -> JSONNode {
        do {
            return JSONNode(value: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            let ns = error as NSError
            let why = ns.userInfo[NSDebugDescriptionErrorKey] as? String ?? ns.localizedDescription
            throw JSONPathError(path: "", expected: "valid JSON", found: why.isEmpty ? "invalid text" : why)
        }
    }

    // MARK: - Errors

    /// An error at this node: `expected` here, found this node's value.
    public func fail(_ expected: String) -> JSONPathError {
        JSONPathError(path: path, expected: expected, found: Self.describe(value))
    }

    /// An error at this node with a caller-chosen `found` text.
    public func fail(_ expected: String, found: String) -> JSONPathError {
        JSONPathError(path: path, expected: expected, found: found)
    }

    /// A short description of a JSON value for "found" texts.
    public static func describe(_ v: Any?) -> String {
        switch v {
        case nil: return "nothing"
        case is NSNull: return "null"
        case let b? where isBoolean(b): return (b as? Bool) == true ? "true" : "false"
        case let n as NSNumber: return "\(n)"
        case let s as String:
            let cut = s.prefix(30).map { $0.isNewline || $0 == "\0" ? " " : $0 }
            return "the string \"\(String(cut))\(s.count > 30 ? "…" : "")\""
        case let a as [Any]: return "an array of \(a.count)"
        case is [String: Any]: return "an object"
        default: return "\(type(of: v!))"
        }
    }

    /// JSON `true`/`false`. Foundation hands them over as NSNumbers of type `c` (char), which
    /// also bridge to Int and Double, so the type code is what tells them from 0 and 1.
    static func isBoolean(_ v: Any) -> Bool {
        if let n = v as? NSNumber { return String(cString: n.objCType) == "c" }
        return v is Bool
    }

    private func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: - Containers

    /// Is this `null`?
    public var isNull: Bool { value is NSNull }

    /// This node as an object's members.
    public func members() throws -> [String: JSONNode] {
        guard let o = value as? [String: Any] else { throw fail("an object") }
        var out: [String: JSONNode] = [:]
        for (k, v) in o { out[k] = JSONNode(value: v, path: child(k)) }
        return out
    }

    /// The member `key` of this object, or nil when absent (`null` counts as present).
    public func optional(_ key: String) throws -> JSONNode? {
        guard let o = value as? [String: Any] else { throw fail("an object") }
        return o[key].map { JSONNode(value: $0, path: child(key)) }
    }

    /// The member `key`, which must be present; `expected` describes it for the error.
    public func required(_ key: String, _ expected: String) throws -> JSONNode {
        guard let n = try optional(key) else { throw JSONPathError(path: child(key), expected: expected, found: "nothing") }
        return n
    }

    /// This node as an array, its length within `count`.
    public func array(count: ClosedRange<Int>? = nil, _ expected: String? = nil) throws -> [JSONNode] {
        guard let a = value as? [Any] else { throw fail(expected ?? "an array") }
        if let count, !count.contains(a.count) {
            let what = expected ?? (count.lowerBound == count.upperBound ? "an array of \(count.lowerBound)" : "an array of \(count.lowerBound)…\(count.upperBound)")
            throw fail(what)
        }
        return a.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    // MARK: - Scalars

    /// A finite number (not a boolean) of magnitude ≤ `maxMagnitude`, within `range` if given.
    public func number(in range: ClosedRange<Double>? = nil, _ expected: String? = nil) throws -> Double {
        let what = expected ?? range.map { "a number in \($0.lowerBound)…\($0.upperBound)" } ?? "a finite number"
        guard !Self.isBoolean(value), let d = (value as? NSNumber)?.doubleValue, d.isFinite, abs(d) <= Self.maxMagnitude else {
            throw fail(what)
        }
        if let range, !range.contains(d) { throw fail(what) }
        return d
    }

    /// A whole number (3.0 counts, 3.5 does not) within `range` if given.
    public func integer(in range: ClosedRange<Int>? = nil, _ expected: String? = nil) throws -> Int {
        let what = expected ?? range.map { "a whole number \($0.lowerBound)…\($0.upperBound)" } ?? "a whole number"
        guard !Self.isBoolean(value), let d = (value as? NSNumber)?.doubleValue, d.isFinite, d == d.rounded(),
              abs(d) < 9.0e15, let i = Int(exactly: d) else { throw fail(what) }
        if let range, !range.contains(i) { throw fail(what) }
        return i
    }

    /// Exactly `n` finite numbers.
    public func numbers(_ n: Int) throws -> [Double] {
        try array(count: n...n, "\(n) numbers").map { try $0.number() }
    }

    /// A string.
    public func string(_ expected: String = "a string") throws -> String {
        guard let s = value as? String else { throw fail(expected) }
        return s
    }

    /// `true` or `false`.
    public func bool() throws -> Bool {
        guard Self.isBoolean(value), let b = value as? Bool else { throw fail("true or false") }
        return b
    }
}
