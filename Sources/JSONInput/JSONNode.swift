// JSONInput — the one way SplatFrame reads JSON documents (camera files, scene files, the
// config, SOG and streamed-SOG meta). A `JSONNode` is a parsed value plus its key path from
// the document's root (`walls.back`, `view[3]`, `tree.children[0].lods.2.count`); every typed
// accessor checks shape and range and throws a `JSONPathError` naming that path, what was
// expected and what was found. Callers wrap the error with their file name. Documents are
// parsed by `JSONValue.parse` (JSONValue.swift). No dependencies.
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

    /// The value.
    public let value: JSONValue
    /// Where the node sits: its container's place (nil for the root) and its own key or index.
    /// The path's text is built only when asked for, mostly for an error: walking a large document
    /// (a 4096-leaf lod-meta.json) builds none, and reading a container's children costs one small
    /// link for the container, not a copy of its path per child.
    private let parent: Place?
    private let component: Component

    /// A container's place, shared by its children: a link to its own container and its step.
    private final class Place {
        let parent: Place?
        let component: Component
        init(parent: Place?, component: Component) { self.parent = parent; self.component = component }
    }

    private enum Component {
        case root(String), key(String), index(Int)
    }

    /// Key path from the root; "" for the root.
    public var path: String {
        var steps = [component]
        var at = parent
        while let p = at { steps.append(p.component); at = p.parent }
        var out = ""
        for step in steps.reversed() {
            switch step {
            case .root(let path): out = path
            case .key(let k): out = out.isEmpty ? k : "\(out).\(k)"
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }

    public init(value: JSONValue, path: String = "") { self.value = value; parent = nil; component = .root(path) }

    private init(value: JSONValue, parent: Place, component: Component) {
        self.value = value; self.parent = parent; self.component = component
    }

    /// This node as the parent of the children about to be read.
    private var place: Place { Place(parent: parent, component: component) }

    /// Parses a whole document. Invalid JSON throws with an empty path and where the text failed.
    public static func parse(_ data: Data) throws -> JSONNode { JSONNode(value: try JSONValue.parse(data)) }

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
    public static func describe(_ v: JSONValue?) -> String {
        switch v {
        case nil: return "nothing"
        case .null?: return "null"
        case .bool(let b)?: return b ? "true" : "false"
        case .number(let d)?: return d == d.rounded() && abs(d) < 1e15 ? "\(Int(d))" : "\(d)"
        case .string(let s)?:
            let cut = s.prefix(30).map { $0.isNewline || $0 == "\0" ? " " : $0 }
            return "the string \"\(String(cut))\(s.count > 30 ? "…" : "")\""
        case .array(let a)?: return "an array of \(a.count)"
        case .object?: return "an object"
        }
    }

    /// `describe` of a string value.
    public static func describe(_ s: String) -> String { describe(.string(s)) }

    // MARK: - Containers

    /// Is this `null`?
    public var isNull: Bool { if case .null = value { return true }; return false }

    /// Throws unless this node is an object.
    public func requireObject() throws {
        guard case .object = value else { throw fail("an object") }
    }

    /// This node as an object's members (a repeated key: the last).
    public func members() throws -> [String: JSONNode] {
        guard case .object(let o) = value else { throw fail("an object") }
        let here = place
        var out: [String: JSONNode] = [:]
        for (k, v) in o { out[k] = JSONNode(value: v, parent: here, component: .key(k)) }
        return out
    }

    /// The member `key` of this object, or nil when absent (`null` counts as present).
    public func optional(_ key: String) throws -> JSONNode? {
        guard case .object(let o) = value else { throw fail("an object") }
        guard let m = o.last(where: { $0.key == key }) else { return nil }
        return JSONNode(value: m.value, parent: place, component: .key(key))
    }

    /// The member `key`, which must be present; `expected` describes it for the error.
    public func required(_ key: String, _ expected: @autoclosure () -> String) throws -> JSONNode {
        guard let n = try optional(key) else {
            let here = path
            throw JSONPathError(path: here.isEmpty ? key : "\(here).\(key)", expected: expected(), found: "nothing")
        }
        return n
    }

    /// This node as an array, its length within `count`.
    public func array(count: ClosedRange<Int>? = nil, _ expected: @autoclosure () -> String? = nil) throws -> [JSONNode] {
        guard case .array(let a) = value else { throw fail(expected() ?? "an array") }
        if let count, !count.contains(a.count) {
            let what = expected() ?? (count.lowerBound == count.upperBound ? "an array of \(count.lowerBound)" : "an array of \(count.lowerBound)…\(count.upperBound)")
            throw fail(what)
        }
        let here = place
        return a.enumerated().map { JSONNode(value: $1, parent: here, component: .index($0)) }
    }

    // MARK: - Scalars

    /// A finite number (not a boolean) of magnitude ≤ `maxMagnitude`, within `range` if given.
    public func number(in range: ClosedRange<Double>? = nil, _ expected: @autoclosure () -> String? = nil) throws -> Double {
        guard case .number(let d) = value, d.isFinite, abs(d) <= Self.maxMagnitude, range?.contains(d) ?? true else {
            throw fail(expected() ?? range.map { "a number in \($0.lowerBound)…\($0.upperBound)" } ?? "a finite number")
        }
        return d
    }

    /// A whole number (3.0 counts, 3.5 does not) within `range` if given.
    public func integer(in range: ClosedRange<Int>? = nil, _ expected: @autoclosure () -> String? = nil) throws -> Int {
        guard case .number(let d) = value, d.isFinite, d == d.rounded(), abs(d) < 9.0e15, let i = Int(exactly: d),
              range?.contains(i) ?? true else {
            throw fail(expected() ?? range.map { "a whole number \($0.lowerBound)…\($0.upperBound)" } ?? "a whole number")
        }
        return i
    }

    /// Exactly `n` finite numbers.
    public func numbers(_ n: Int) throws -> [Double] {
        guard case .array(let a) = value, a.count == n else { throw fail("\(n) numbers") }
        // Read in place; a node (and its path) is made only for an item that fails.
        return try a.indices.map { i in
            if case .number(let d) = a[i], d.isFinite, abs(d) <= Self.maxMagnitude { return d }
            return try JSONNode(value: a[i], parent: place, component: .index(i)).number()
        }
    }

    /// A string.
    public func string(_ expected: @autoclosure () -> String = "a string") throws -> String {
        guard case .string(let s) = value else { throw fail(expected()) }
        return s
    }

    /// `true` or `false`.
    public func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw fail("true or false") }
        return b
    }
}
