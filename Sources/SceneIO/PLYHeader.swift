// SceneIO — PLYHeader: the parsed `ply … end_header` block (format, elements, properties).
//
// Lenient where real writers are sloppy, strict where the body's layout depends on it: a header
// line with an unknown keyword (Blender 2.47 writes a bare `Created by Blender3D 247 - …`) is
// skipped with a warning naming its line; a malformed `format`, `element` or `property` line is an
// error, since guessing there would misread every byte after `end_header`.

/// A PLY scalar type with its byte size (both spellings: `uchar` and `uint8`, …).
enum PLYScalar: UInt8, Sendable {
    case int8, uint8, int16, uint16, int32, uint32, float32, float64

    /// Size in bytes.
    var size: Int {
        switch self {
        case .int8, .uint8: return 1
        case .int16, .uint16: return 2
        case .int32, .uint32, .float32: return 4
        case .float64: return 8
        }
    }

    /// Parses a type name (`char`, `int8`, `float`, `float32`, …).
    init?(name: String) {
        switch name {
        case "char", "int8": self = .int8
        case "uchar", "uint8": self = .uint8
        case "short", "int16": self = .int16
        case "ushort", "uint16": self = .uint16
        case "int", "int32": self = .int32
        case "uint", "uint32": self = .uint32
        case "float", "float32": self = .float32
        case "double", "float64": self = .float64
        default: return nil
        }
    }

    /// The canonical PLY spelling.
    var name: String {
        switch self {
        case .int8: return "char"
        case .uint8: return "uchar"
        case .int16: return "short"
        case .uint16: return "ushort"
        case .int32: return "int"
        case .uint32: return "uint"
        case .float32: return "float"
        case .float64: return "double"
        }
    }

    /// The largest value of an integer type (for colour normalisation).
    var integerMax: Double? {
        switch self {
        case .uint8: return 255
        case .int8: return 127
        case .uint16: return 65535
        case .int16: return 32767
        case .uint32: return 4294967295
        case .int32: return 2147483647
        case .float32, .float64: return nil
        }
    }

    /// Reads one value at a byte offset (caller checked bounds).
    @inline(__always) func read(_ b: UnsafeRawBufferPointer, _ o: Int, bigEndian: Bool) -> Double {
        switch self {
        case .int8: return Double(b.load(fromByteOffset: o, as: Int8.self))
        case .uint8: return Double(b.load(fromByteOffset: o, as: UInt8.self))
        case .int16:
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt16.self)
            return Double(Int16(bitPattern: bigEndian ? v.byteSwapped : v))
        case .uint16:
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt16.self)
            return Double(bigEndian ? v.byteSwapped : v)
        case .int32:
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt32.self)
            return Double(Int32(bitPattern: bigEndian ? v.byteSwapped : v))
        case .uint32:
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt32.self)
            return Double(bigEndian ? v.byteSwapped : v)
        case .float32:
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt32.self)
            return Double(Float(bitPattern: bigEndian ? v.byteSwapped : v))
        case .float64:
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            return Double(bitPattern: bigEndian ? v.byteSwapped : v)
        }
    }
}

/// One property of an element: a scalar, or a list (count type + item type).
struct PLYProperty: Sendable {
    var name: String
    var type: PLYScalar
    /// The list's count type, nil for a scalar property.
    var listCount: PLYScalar?
    var isList: Bool { listCount != nil }
}

/// One element declaration.
struct PLYElement: Sendable {
    var name: String
    var count: Int
    var properties: [PLYProperty] { didSet { reindex() } }
    /// Header line of the declaration (1-based).
    var line: Int
    /// First property index per name (built as properties are added: O(1) lookups).
    private(set) var indexByName: [String: Int] = [:]

    init(name: String, count: Int, properties: [PLYProperty], line: Int) {
        self.name = name; self.count = count; self.line = line; self.properties = properties
        reindex()
    }

    private mutating func reindex() {
        for (i, p) in properties.enumerated() where indexByName[p.name] == nil { indexByName[p.name] = i }
    }

    /// Bytes per row when no property is a list, else nil.
    var fixedRowSize: Int? {
        var s = 0
        for p in properties { if p.isList { return nil }; s += p.type.size }
        return s
    }
    /// The smallest possible binary row (a list counts its count field only).
    var minRowSize: Int { properties.reduce(0) { $0 + ($1.listCount?.size ?? $1.type.size) } }

    /// Index of the (first) property with a name.
    func index(of name: String) -> Int? { indexByName[name] }
    /// True when every name is a scalar (non-list) property.
    func has(_ names: String...) -> Bool { names.allSatisfy { isScalar($0) } }
    /// True when the name is a scalar property.
    func isScalar(_ name: String) -> Bool { index(of: name).map { !properties[$0].isList } ?? false }
}

/// The parsed header of a PLY file.
struct PLYHeader: Sendable {
    enum Encoding: String, Sendable { case ascii, binaryLittleEndian = "binary_little_endian", binaryBigEndian = "binary_big_endian" }
    var encoding: Encoding
    var version: String
    var elements: [PLYElement]
    var comments: [String]
    /// The value of the last `comment SplatRenderMode: VALUE` and its 1-based line (`SplatRenderMode`).
    var renderMode: (value: String, line: Int)? = nil
    /// One line per header line skipped (unknown keyword): `file: line N: skipped …`. At most
    /// `maxWarnings` lines, the last one counting any further skips.
    var warnings: [String] = []
    /// Byte offset of the body (just after `end_header` and its line break).
    var bodyOffset: Int
    /// Line number of the body's first line.
    var bodyLine: Int

    func element(_ name: String) -> PLYElement? { elements.first { $0.name == name } }

    /// Most warnings kept per header (a hostile header could hold thousands of unknown lines).
    static let maxWarnings = 20

    /// Parses the header from the start of the bytes.
    static func parse(_ view: ByteView) throws -> PLYHeader {
        var sc = TextScanner(view)
        let file = view.file
        func fail(_ expected: String, _ found: String) -> SceneIOError {
            .badLine(file: file, line: sc.line, expected: expected, found: found)
        }
        guard let first = sc.restOfLine(), sc.string(first) == "ply" else {
            throw SceneIOError.badLine(file: file, line: 1, expected: "\"ply\"", found: SceneIOError.show(view.bytes, 0, 8))
        }
        var encoding: Encoding?
        var version = ""
        var elements: [PLYElement] = []
        var comments: [String] = []
        var renderMode: (value: String, line: Int)?
        var warnings: [String] = []
        var skipped = 0
        while true {
            let lineNo = sc.line
            guard let r = sc.restOfLine() else { throw SceneIOError.truncated(file: file, offset: view.count, expected: "end_header") }
            if r.count > 4096 { throw SceneIOError.badLine(file: file, line: lineNo, expected: "a header line under 4096 bytes", found: "\(r.count) bytes") }
            let toks = tokens(in: r, of: view.bytes).map { sc.string($0) }
            guard let key = toks.first else { continue }
            switch key {
            case "format":
                guard toks.count == 3, let e = Encoding(rawValue: toks[1]) else {
                    throw SceneIOError.badLine(file: file, line: lineNo, expected: "format ascii|binary_little_endian|binary_big_endian 1.0", found: sc.string(r))
                }
                encoding = e; version = toks[2]
            case "comment", "obj_info":
                let text = String(sc.string(r).dropFirst(key.count + 1))
                if comments.count < 1000 { comments.append(String(text.prefix(200))) }
                if key == "comment", let v = SplatRenderMode.value(inComment: text) { renderMode = (v, lineNo) }
            case "element":
                guard toks.count == 3, let n = Int(toks[2]), n >= 0 else {
                    throw SceneIOError.badLine(file: file, line: lineNo, expected: "element NAME COUNT", found: sc.string(r))
                }
                guard elements.count < 10000 else { throw SceneIOError.badLine(file: file, line: lineNo, expected: "at most 10000 elements", found: "more") }
                elements.append(PLYElement(name: toks[1], count: n, properties: [], line: lineNo))
            case "property":
                guard !elements.isEmpty else { throw SceneIOError.badLine(file: file, line: lineNo, expected: "element before property", found: sc.string(r)) }
                guard elements[elements.count - 1].properties.count < 10000 else {
                    throw SceneIOError.badLine(file: file, line: lineNo, expected: "at most 10000 properties per element", found: "more")
                }
                if toks.count == 3, let t = PLYScalar(name: toks[1]) {
                    elements[elements.count - 1].properties.append(PLYProperty(name: toks[2], type: t, listCount: nil))
                } else if toks.count == 5, toks[1] == "list", let c = PLYScalar(name: toks[2]), let t = PLYScalar(name: toks[3]) {
                    guard c != .float32 && c != .float64 else {
                        throw SceneIOError.badLine(file: file, line: lineNo, expected: "an integer list count type", found: toks[2])
                    }
                    elements[elements.count - 1].properties.append(PLYProperty(name: toks[4], type: t, listCount: c))
                } else {
                    throw SceneIOError.badLine(file: file, line: lineNo, expected: "property TYPE NAME or property list COUNTTYPE TYPE NAME", found: sc.string(r))
                }
            case "end_header":
                guard let enc = encoding else { throw fail("a format line before end_header", "end_header") }
                if skipped > maxWarnings - 1 {
                    warnings.append("\(file): \(skipped - (maxWarnings - 1)) more unknown header lines skipped")
                }
                return PLYHeader(encoding: enc, version: version, elements: elements, comments: comments, renderMode: renderMode,
                                 warnings: warnings, bodyOffset: sc.pos, bodyLine: sc.line)
            default:
                // Not a PLY keyword (e.g. Blender 2.47's bare "Created by Blender3D 247 - …"): the body's
                // layout never depends on such a line, so it is skipped and reported.
                skipped += 1
                if skipped < maxWarnings {
                    warnings.append("\(file): line \(lineNo): skipped unknown header line \(SceneIOError.clean(sc.string(r)))")
                }
            }
        }
    }
}
