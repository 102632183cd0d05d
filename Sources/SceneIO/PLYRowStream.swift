// SceneIO — PLYRowStream: a 3DGS PLY that `PLYSplatStream` does not take (ASCII, big-endian,
// other scalar types than float32) read a block of rows at a time: the rows are decoded into
// Double columns as `PLYBody` decodes them and turned into splats by the reference decoder
// (`PLYReader.referenceSplats`), the very code the whole-file reader runs on its columns, so the
// values are bit-identical. What it holds is one block and one read buffer, whatever the file's
// size. ASCII rows are read from a buffer of whole lines (tokens never straddle a refill).
import Foundation
import RenderCore

/// A 3DGS PLY of any encoding, block by block (see the file header). Takes files whose vertex
/// element comes first and has no list properties (every 3DGS writer's); `open` returns nil for
/// others, which are read whole.
public final class PLYRowStream: SplatStream {
    private let input: ReadOnlyFile
    private let file: String
    private let vertex: PLYElement
    private let layout: GaussianLayout
    private let encoding: PLYHeader.Encoding
    /// Index in the row of each property kept (nil: skipped).
    private let kept: [String?]
    private let fileSize: Int
    /// File offset of the first vertex row.
    private let bodyOffset: Int
    private var row = 0
    /// File offset and (ASCII) line of the next row.
    private var offset: Int, line: Int
    /// ASCII: bytes `[bufferStart, bufferStart + bufferCount)` of the file, ending at a line break
    /// (or at the file's end). Binary: one block of rows.
    private var buffer: [UInt8] = []
    private var bufferStart = 0, bufferCount = 0
    /// Bytes an ASCII refill reads at least (a row longer than this grows it).
    private let chunkBytes: Int
    public let count: Int
    public var shDegree: Int { layout.degree }
    public let warnings: [String]
    public var isBounded: Bool { true }

    /// The stream of `path`, or nil when it is not a 3DGS PLY this stream takes (see the type).
    /// `chunkBytes` is the ASCII read size (tests make it small to cross many refills).
    /// - Throws: `SceneIOError` when the file cannot be opened or the binary rows are cut short.
    public static func open(_ path: String, chunkBytes: Int = 4 << 20) throws -> PLYRowStream? {
        guard let f = try ReadOnlyFile.open(path, headBytes: PLYSplatStream.headerLimit), f.head.starts(with: Array("ply".utf8)) else { return nil }
        let size = f.size, head = f.head
        let parsed: (PLYHeader, [String])? = head.withUnsafeBytes { raw in
            guard let h = try? PLYHeader.parse(ByteView(bytes: raw, file: path)), PLYReader.kind(of: h) == .gaussians else { return nil }
            var warnings = h.warnings
            guard PLYReader.renderMode(h, file: path, warnings: &warnings) != .twoD else { return nil }
            return (h, warnings)
        }
        guard let (h, warnings) = parsed, let v = h.elements.first, v.name == "vertex", !v.properties.contains(where: \.isList),
              let rowSize = v.fixedRowSize else { return nil }
        let layout = try GaussianLayout(v, file: path)
        if h.encoding != .ascii {
            guard let total = SizeMath.mul(v.count, rowSize), h.bodyOffset <= size, total <= size - h.bodyOffset else {
                throw SceneIOError.truncated(file: path, offset: min(h.bodyOffset, size), expected: "\(v.count) vertex rows of \(rowSize) bytes (header line \(v.line))")
            }
        }
        return PLYRowStream(input: f, header: h, layout: layout, size: size, chunkBytes: max(64, chunkBytes), warnings: warnings)
    }

    private init(input: ReadOnlyFile, header h: PLYHeader, layout: GaussianLayout, size: Int, chunkBytes: Int, warnings: [String]) {
        self.input = input; file = input.path; self.layout = layout; self.warnings = warnings; self.chunkBytes = chunkBytes
        let v = h.elements[0]
        vertex = v; encoding = h.encoding; fileSize = size
        count = v.count; offset = h.bodyOffset; bodyOffset = h.bodyOffset; line = h.bodyLine
        let names = PLYReader.splatPropertyNames(layout)
        kept = v.properties.enumerated().map { k, p in names.contains(p.name) && v.index(of: p.name) == k ? p.name : nil }
    }

    public func next(maxSplats: Int) throws -> SplatCloud? {
        guard row < count else { return nil }
        let n = min(count - row, max(1, maxSplats))
        var values = vertex.properties.map { _ in [Double]() }
        for k in kept.indices where kept[k] != nil { values[k].reserveCapacity(n) }
        if encoding == .ascii { try readASCII(n, into: &values) } else { try readBinary(n, into: &values) }
        let first = row
        let cloud = try splats(values, count: n) { first + $0 }
        row += n
        return cloud
    }

    /// The splats of decoded rows (`values[k]`: property k's values, kept ones only).
    private func splats(_ values: [[Double]], count n: Int, rowNumber: (Int) -> Int) throws -> SplatCloud {
        var columns = PLYColumns(count: n)
        for (k, name) in kept.enumerated() { if let name { columns.scalars[name] = values[k] } }
        return try PLYReader.referenceSplats(columns, layout: layout, file: file, rowNumber: rowNumber)
    }

    /// About every `step`-th splat, without disturbing `next`: binary rows 0, step, 2·step…;
    /// ASCII rows (which have no fixed size) the row starting at or after each of
    /// ⌈count/step⌉ evenly spaced byte positions of the body — an even spread, read a row at a
    /// time. Files whose rows do not each fill exactly one line are sampled in one pass through
    /// a second stream instead.
    public func sample(step: Int) throws -> SplatCloud {
        let step = max(1, step), total = (count + step - 1) / step
        var values = vertex.properties.map { _ in [Double]() }
        var rows: [Int] = []
        if encoding != .ascii {
            let rowSize = vertex.fixedRowSize ?? 0, big = encoding == .binaryBigEndian
            var bytes = [UInt8](repeating: 0, count: rowSize)
            for r in stride(from: 0, to: count, by: step) {
                try bytes.withUnsafeMutableBytes { raw in
                    try input.read(into: raw.baseAddress!, rowSize, at: bodyOffset + r * rowSize, expected: "\(count) vertex rows (header line \(vertex.line))")
                    var po = 0
                    for (k, p) in vertex.properties.enumerated() {
                        if kept[k] != nil { values[k].append(p.type.read(UnsafeRawBufferPointer(raw), po, bigEndian: big)) }
                        po += p.type.size
                    }
                }
                rows.append(r)
            }
        } else {
            let body = fileSize - bodyOffset
            var window = [UInt8](), last = -1
            for k in 0..<total {
                let target = bodyOffset + Int(Double(k) / Double(total) * Double(body))
                switch try asciiRow(near: target, window: &window) {
                case .notOneLine: return try sampleInOnePass(step: step)
                case .none: continue
                case let .row(start, parsed):
                    guard start != last else { continue }
                    last = start
                    for (p, v) in parsed.enumerated() where kept[p] != nil { values[p].append(v) }
                    rows.append(Int(Double(k) / Double(total) * Double(count)))
                }
            }
        }
        return try splats(values, count: rows.count) { rows[$0] }
    }

    /// What `asciiRow` found.
    private enum SampledRow {
        /// The row starting at file offset `start`, its values in property order.
        case row(start: Int, values: [Double])
        /// No row starts at or after the target.
        case none
        /// The line there does not hold exactly one row.
        case notOneLine
    }

    /// The ASCII row that starts at `target` or at the first line start after it.
    private func asciiRow(near target: Int, window: inout [UInt8]) throws -> SampledRow {
        var size = 4096
        while true {
            let want = min(size, fileSize - (target - 1)), reachesEnd = target - 1 + want >= fileSize
            if window.count < want { window = [UInt8](repeating: 0, count: want) }
            try window.withUnsafeMutableBytes { try input.read(into: $0.baseAddress!, want, at: target - 1, expected: "\(count) vertex rows (header line \(vertex.line))") }
            let found: SampledRow? = window.withUnsafeBytes { raw in
                let view = ByteView(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<want]), file: file)
                // Byte 0 is the one before `target` (the header ends with a line break).
                var start = 0
                while start < want && raw[start] != 10 { start += 1 }
                guard start + 1 < want else { return reachesEnd ? SampledRow.none : nil }
                var lineEnd = start + 1
                while lineEnd < want && raw[lineEnd] != 10 { lineEnd += 1 }
                guard lineEnd < want || reachesEnd else { return nil }
                var sc = TextScanner(view, at: start + 1, line: 0)
                sc.skipSpace()
                if sc.atEnd { return SampledRow.none }
                var row: [Double] = []
                for _ in vertex.properties {
                    guard let t = sc.token(), t.upperBound <= lineEnd, let v = parseNumber(view.bytes, t) else { return .notOneLine }
                    row.append(v)
                }
                sc.skipSpace()
                return sc.pos > lineEnd || sc.atEnd ? .row(start: target + start, values: row) : .notOneLine
            }
            if let found { return found }
            guard want < Self.longestLine, !reachesEnd else { return .notOneLine }
            size *= 2
        }
    }

    /// Every `step`-th splat through a fresh stream of the same file, read block by block.
    private func sampleInOnePass(step: Int) throws -> SplatCloud {
        guard let again = try PLYRowStream.open(file, chunkBytes: chunkBytes) else {
            throw SceneIOError.unreadable(file: file, reason: "the file changed while it was read")
        }
        var out = SplatCloud(shDegree: layout.degree)
        var index = 0
        while let block = try again.next(maxSplats: 65536) {
            let per = block.shRestCount * 3
            for i in stride(from: (index + step - 1) / step * step - index, to: block.count, by: step) {
                out.append(position: block.positions[i], scale: block.scales[i], rotation: block.rotations[i], opacity: block.opacities[i],
                           dc: block.dc[i], rest: Array(block.shRest[(i * per)..<((i + 1) * per)]))
            }
            index += block.count
        }
        return out
    }

    /// `n` fixed-size binary rows from `offset`, each value read as `PLYBody.decodeBinary` reads it.
    private func readBinary(_ n: Int, into values: inout [[Double]]) throws {
        let rowSize = vertex.fixedRowSize ?? 0, bytes = n * rowSize, big = encoding == .binaryBigEndian
        if buffer.count < bytes { buffer = [UInt8](repeating: 0, count: bytes) }
        try buffer.withUnsafeMutableBytes { raw in
            try input.read(into: raw.baseAddress!, bytes, at: offset, expected: "\(n) vertex rows of \(rowSize) bytes (header line \(vertex.line))")
            let b = UnsafeRawBufferPointer(raw)
            var po = 0
            for (k, p) in vertex.properties.enumerated() {
                if kept[k] != nil {
                    for i in 0..<n { values[k].append(p.type.read(b, po + i * rowSize, bigEndian: big)) }
                }
                po += p.type.size
            }
        }
        offset += bytes
    }

    /// `n` ASCII rows from `offset`, each token parsed as `PLYBody.decodeASCII` parses it.
    private func readASCII(_ n: Int, into values: inout [[Double]]) throws {
        var i = 0
        while i < n {
            try fill(from: offset, atLeast: chunkBytes)
            let parsed: (rows: Int, pos: Int, line: Int, cut: Bool) = try buffer.withUnsafeBytes { raw in
                let view = ByteView(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<bufferCount]), file: file)
                var sc = TextScanner(view, at: offset - bufferStart, line: line)
                var rows = 0, rowPos = sc.pos, rowLine = sc.line
                while i + rows < n {
                    rowPos = sc.pos; rowLine = sc.line
                    // A row that runs past a buffer cut before the file's end is read again
                    // after a refill (the buffer ends at a line break, so no token is split).
                    if bufferStart + bufferCount < fileSize {
                        var probe = sc
                        probe.skipSpace()
                        if probe.atEnd { return (rows, rowPos, rowLine, true) }
                    }
                    do {
                        for (k, p) in vertex.properties.enumerated() {
                            let v = try sc.number("a \(p.type.name) value for \(p.name) (vertex row \(row + i + rows))")
                            if kept[k] != nil { values[k].append(v) }
                        }
                    } catch where sc.atEnd && bufferStart + bufferCount < fileSize {
                        for k in kept.indices where kept[k] != nil { values[k].removeLast(values[k].count - (i + rows)) }
                        return (rows, rowPos, rowLine, true)
                    }
                    rows += 1
                }
                return (rows, sc.pos, sc.line, false)
            }
            i += parsed.rows
            offset = bufferStart + parsed.pos; line = parsed.line
            if parsed.cut && parsed.rows == 0 {
                // Not one whole row in the buffer: read a bigger piece (bounded by the file).
                try fill(from: offset, atLeast: max(chunkBytes, bufferCount * 2), force: true)
            }
        }
    }

    /// Makes the buffer hold the file from `start`, at least `atLeast` bytes (or to the end),
    /// cut after its last line break unless it reaches the file's end; with `force`, a cut past
    /// the current buffer's end (reading more until a line break lies beyond it).
    private func fill(from start: Int, atLeast: Int, force: Bool = false) throws {
        let end = bufferStart + bufferCount
        if !force && start >= bufferStart && start < end && (end == fileSize || end - start >= atLeast / 2) { return }
        let beyond = force ? end : start
        var want = min(max(1, atLeast), fileSize - start)
        while true {
            if buffer.count < want { buffer = [UInt8](repeating: 0, count: want) }
            try buffer.withUnsafeMutableBytes { raw in
                try input.read(into: raw.baseAddress!, want, at: start, expected: "\(count) vertex rows (header line \(vertex.line))")
            }
            if start + want == fileSize { bufferStart = start; bufferCount = want; return }
            var cut = want
            while cut > 0 && buffer[cut - 1] != 10 { cut -= 1 }
            if cut > 0 && start + cut > beyond { bufferStart = start; bufferCount = cut; return }
            guard want < Self.longestLine else {
                throw SceneIOError.badLine(file: file, line: line, expected: "vertex rows under \(Self.longestLine >> 20) MB", found: "no line break in \(want) bytes")
            }
            want = min(want * 2, fileSize - start)
        }
    }

    /// Most bytes an ASCII refill reads looking for a line break.
    static let longestLine = 64 << 20
}
