// SceneIO — TextScanner: whitespace tokenizer with line numbers for ASCII PLY, OBJ, STL and MTL.

/// Walks text bytes token by token (or line by line), counting lines (1-based) for errors.
struct TextScanner {
    let view: ByteView
    /// Current byte offset.
    var pos: Int
    /// Line number (1-based) of `pos`.
    var line: Int

    init(_ view: ByteView, at pos: Int = 0, line: Int = 1) { self.view = view; self.pos = pos; self.line = line }

    var atEnd: Bool { pos >= view.count }

    /// Skips spaces, tabs, CR and LF (counting lines).
    @inline(__always) mutating func skipSpace() {
        let b = view.bytes
        while pos < b.count {
            let c = b[pos]
            if c == 10 { line += 1 } else if c != 32 && c != 9 && c != 13 && c != 12 && c != 11 { return }
            pos += 1
        }
    }

    /// The next whitespace-delimited token (crossing lines), or nil at the end.
    @inline(__always) mutating func token() -> Range<Int>? {
        skipSpace()
        let b = view.bytes
        let start = pos
        while pos < b.count {
            let c = b[pos]
            if c == 32 || c == 10 || c == 9 || c == 13 || c == 12 || c == 11 { break }
            pos += 1
        }
        return start < pos ? start..<pos : nil
    }

    /// The next token parsed as a number, or a `badLine` error naming `what`.
    @inline(__always) mutating func number(_ what: @autoclosure () -> String) throws -> Double {
        guard let t = token() else {
            throw SceneIOError.badLine(file: view.file, line: line, expected: what(), found: "end of file")
        }
        guard let v = parseNumber(view.bytes, t) else {
            throw SceneIOError.badLine(file: view.file, line: line, expected: what(), found: string(t))
        }
        return v
    }

    /// The rest of the current line (without the line break), advancing past it; nil at the end.
    mutating func restOfLine() -> Range<Int>? {
        let b = view.bytes
        guard pos < b.count else { return nil }
        let start = pos
        while pos < b.count && b[pos] != 10 { pos += 1 }
        var end = pos
        if end > start && b[end - 1] == 13 { end -= 1 }
        if pos < b.count { pos += 1; line += 1 }
        return start..<end
    }

    /// The bytes of a range as a String (for names and messages).
    func string(_ r: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: view.bytes[r]), as: UTF8.self) }

    /// True when the bytes in `r` equal the ASCII literal `s`.
    func equals(_ r: Range<Int>, _ s: StaticString) -> Bool {
        guard r.count == s.utf8CodeUnitCount else { return false }
        let p = s.utf8Start
        for (k, i) in r.enumerated() where view.bytes[i] != p[k] { return false }
        return true
    }
}

/// Splits a line range into whitespace-separated token ranges.
func tokens(in r: Range<Int>, of bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
    var out: [Range<Int>] = []
    var i = r.lowerBound
    while i < r.upperBound {
        while i < r.upperBound && (bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13) { i += 1 }
        let s = i
        while i < r.upperBound && bytes[i] != 32 && bytes[i] != 9 && bytes[i] != 13 { i += 1 }
        if s < i { out.append(s..<i) }
    }
    return out
}
