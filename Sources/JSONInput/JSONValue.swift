// JSONInput — JSONValue and its parser: a JSON document (RFC 8259) parsed from bytes into plain
// Swift values. Objects keep their members as a small array of pairs (the last of a repeated key
// wins, and a comma before a closing bracket is taken, as with Foundation's parser); numbers are
// Doubles parsed by `strtod`, correctly rounded (Foundation's parser on Linux can be a few units in
// the last place off for long decimals). About a tenth of the memory `JSONSerialization` takes on Linux (NSDictionary and
// NSNumber per value: 4.4 GB for a 64M-splat tree's 86 MB lod-meta.json) and several times
// faster. Nesting is limited (`maxDepth`), so hostile input cannot exhaust the stack.
import Foundation

/// A parsed JSON value.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order (keys may repeat: the last one counts).
    case object([(key: String, value: JSONValue)])

    /// Containers nested deeper than this are refused.
    public static let maxDepth = 512

    /// Parses a whole document (leading and trailing whitespace allowed).
    /// - Throws: `JSONPathError` at the root: "expected valid JSON, found <what, at byte N>".
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var p = JSONByteParser(bytes: raw)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            guard p.pos == raw.count else { throw p.fail("text after the document") }
            return v
        }
    }
}

/// The recursive-descent parser behind `JSONValue.parse`.
struct JSONByteParser {
    let bytes: UnsafeRawBufferPointer
    var pos = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func fail(_ what: String) -> JSONPathError {
        JSONPathError(path: "", expected: "valid JSON", found: "\(what) at byte \(pos)")
    }

    mutating func skipSpace() {
        while pos < bytes.count {
            let c = bytes[pos]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos += 1
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard pos < bytes.count else { throw fail("the end of the text") }
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            guard depth < JSONValue.maxDepth else { throw fail("nesting deeper than \(JSONValue.maxDepth)") }
            pos += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
            while true {
                skipSpace()
                // A comma before the brace is taken, as Foundation's parser takes it.
                if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") && !members.isEmpty { pos += 1; return .object(members) }
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("no member name") }
                let key = try string()
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("no ':' after a member name") }
                pos += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard pos < bytes.count else { throw fail("the end of the text inside an object") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                guard bytes[pos] == UInt8(ascii: "}") else { throw fail("no ',' or '}' after a member") }
                pos += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            guard depth < JSONValue.maxDepth else { throw fail("nesting deeper than \(JSONValue.maxDepth)") }
            pos += 1
            var items: [JSONValue] = []
            skipSpace()
            if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") && !items.isEmpty { pos += 1; return .array(items) }
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard pos < bytes.count else { throw fail("the end of the text inside an array") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                guard bytes[pos] == UInt8(ascii: "]") else { throw fail("no ',' or ']' after an item") }
                pos += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            return .number(try number())
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard pos + n <= bytes.count, memcmp(bytes.baseAddress! + pos, word.utf8Start, n) == 0 else { throw fail("an unknown word") }
        pos += n
    }

    /// A number by JSON's grammar, converted with `strtod`.
    mutating func number() throws -> Double {
        let start = pos
        func digits() -> Int {
            let s = pos
            while pos < bytes.count && bytes[pos] >= 0x30 && bytes[pos] <= 0x39 { pos += 1 }
            return pos - s
        }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count, bytes[pos] >= 0x30 && bytes[pos] <= 0x39 else { throw fail("an unexpected character") }
        if bytes[pos] == 0x30 { pos += 1 } else { _ = digits() }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard digits() > 0 else { throw fail("a number without digits after '.'") }
        }
        if pos < bytes.count && (bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")) {
            pos += 1
            if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard digits() > 0 else { throw fail("a number without exponent digits") }
        }
        let n = pos - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buf in
            for k in 0..<n { buf[k] = CChar(bitPattern: bytes[start + k]) }
            buf[n] = 0
            return strtod(buf.baseAddress!, nil)
        }
    }

    /// A string from its opening quote, escapes decoded (a lone surrogate becomes U+FFFD).
    mutating func string() throws -> String {
        pos += 1
        let start = pos
        // The common case: no escapes, valid UTF-8 straight from the bytes.
        while pos < bytes.count {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
                pos += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            guard c >= 0x20 else { throw fail("a control character in a string") }
            pos += 1
        }
        var out = Array(bytes[start..<pos])
        while true {
            guard pos < bytes.count else { throw fail("the end of the text inside a string") }
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") { pos += 1; return String(decoding: out, as: UTF8.self) }
            guard c >= 0x20 else { throw fail("a control character in a string") }
            guard c == UInt8(ascii: "\\") else { out.append(c); pos += 1; continue }
            pos += 1
            guard pos < bytes.count else { throw fail("the end of the text inside a string") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00, pos + 6 <= bytes.count,
                   bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") {
                    let save = pos
                    pos += 2
                    let low = try hex4()
                    if low >= 0xDC00 && low < 0xE000 { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) } else { pos = save }
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default: throw fail("an unknown escape in a string")
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= bytes.count else { throw fail("the end of the text inside a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: throw fail("a \\u escape without four hex digits")
            }
            v = v << 4 | UInt32(d)
            pos += 1
        }
        return v
    }
}
