// SceneIO — PLYBody: the generic (slow, obvious) PLY body decoder into Double columns.
//
// Works for every encoding, scalar type and list layout. The 3DGS fast path
// (`PLYReader+Splats.swift`) is tested against this decoder.

/// A decoded list property: row i's items are `values[offsets[i]..<offsets[i+1]]`.
struct PLYList: Sendable {
    var offsets: [Int] = [0]
    var values: [Double] = []
    func items(_ row: Int) -> ArraySlice<Double> { values[offsets[row]..<offsets[row + 1]] }
}

/// The requested properties of one element, decoded.
struct PLYColumns: Sendable {
    var count: Int
    var scalars: [String: [Double]] = [:]
    var lists: [String: PLYList] = [:]
}

/// Decodes the body of a PLY file into columns.
enum PLYBody {
    /// Walks every element in order and decodes the properties named in `wanted`
    /// (element name → property names). Elements not named are skipped.
    /// - Complexity: O(file size); allocation bounded by the rows the file really holds.
    static func decode(_ header: PLYHeader, _ view: ByteView, wanted: [String: Set<String>],
                       progress: SceneLoadProgress? = nil) throws -> [String: PLYColumns] {
        if header.encoding == .ascii {
            return try decodeASCII(header, view, wanted: wanted, progress: progress)
        }
        return try decodeBinary(header, view, wanted: wanted, progress: progress)
    }

    static func decodeBinary(_ header: PLYHeader, _ view: ByteView, wanted: [String: Set<String>],
                             progress: SceneLoadProgress?) throws -> [String: PLYColumns] {
        let big = header.encoding == .binaryBigEndian
        let b = view.bytes
        let file = view.file
        var o = header.bodyOffset
        var out: [String: PLYColumns] = [:]
        for e in header.elements {
            let want = out[e.name] == nil ? wanted[e.name] : nil
            var cols = PLYColumns(count: e.count)
            let remaining = view.count - o
            guard let minBytes = SizeMath.mul(e.count, e.minRowSize), minBytes <= remaining else {
                throw SceneIOError.truncated(file: file, offset: o, expected: "\(e.count) \(e.name) rows of at least \(e.minRowSize) bytes (header line \(e.line))")
            }
            if let rowSize = e.fixedRowSize {
                let total = e.count * rowSize
                if let want {
                    var po = 0
                    for (k, p) in e.properties.enumerated() {
                        if want.contains(p.name) && e.index(of: p.name) == k {
                            let t = p.type, base = o + po, n = e.count
                            cols.scalars[p.name] = [Double](filling: n) { buf, done in
                                for i in 0..<n { buf[i] = t.read(b, base + i * rowSize, bigEndian: big) }
                                done = n
                            }
                        }
                        po += p.type.size
                    }
                }
                o += total
                progress?(o, view.count)
            } else {
                var scalarCols: [[Double]] = e.properties.map { _ in [] }
                var listCols: [PLYList] = e.properties.map { _ in PLYList() }
                let keep = e.properties.indices.map { want?.contains(e.properties[$0].name) == true && e.index(of: e.properties[$0].name) == $0 }
                for k in e.properties.indices where keep[k] {
                    if e.properties[k].isList { listCols[k].offsets.reserveCapacity(e.count + 1) } else { scalarCols[k].reserveCapacity(e.count) }
                }
                for row in 0..<e.count {
                    for (k, p) in e.properties.enumerated() {
                        if let ct = p.listCount {
                            try view.need(o, ct.size, "a list count (\(e.name) row \(row))")
                            let nd = ct.read(b, o, bigEndian: big)
                            guard let n = exactInt(nd), n >= 0 else {
                                throw SceneIOError.badBytes(file: file, offset: o, expected: "a list count ≥ 0", found: "\(nd)")
                            }
                            o += ct.size
                            guard let bytes = SizeMath.mul(n, p.type.size), bytes <= view.count - o else {
                                throw SceneIOError.truncated(file: file, offset: o, expected: "\(n) list items of \(p.name) (\(e.name) row \(row))")
                            }
                            if keep[k] {
                                for j in 0..<n { listCols[k].values.append(p.type.read(b, o + j * p.type.size, bigEndian: big)) }
                                listCols[k].offsets.append(listCols[k].values.count)
                            }
                            o += bytes
                        } else {
                            try view.need(o, p.type.size, "\(p.name) (\(e.name) row \(row))")
                            if keep[k] { scalarCols[k].append(p.type.read(b, o, bigEndian: big)) }
                            o += p.type.size
                        }
                    }
                    if row & 0xFFFF == 0xFFFF { progress?(o, view.count) }
                }
                for (k, p) in e.properties.enumerated() where keep[k] {
                    if p.isList { cols.lists[p.name] = listCols[k] } else { cols.scalars[p.name] = scalarCols[k] }
                }
            }
            if want != nil { out[e.name] = cols }
        }
        return out
    }

    static func decodeASCII(_ header: PLYHeader, _ view: ByteView, wanted: [String: Set<String>],
                            progress: SceneLoadProgress?) throws -> [String: PLYColumns] {
        var sc = TextScanner(view, at: header.bodyOffset, line: header.bodyLine)
        let file = view.file
        var out: [String: PLYColumns] = [:]
        for e in header.elements {
            let want = out[e.name] == nil ? wanted[e.name] : nil
            var cols = PLYColumns(count: e.count)
            if e.properties.isEmpty { if want != nil { out[e.name] = cols }; continue }
            // Each value needs at least one character and one separator.
            let remaining = view.count - sc.pos
            guard let tokens = SizeMath.mul(e.count, e.properties.count), tokens <= remaining / 2 + 1 else {
                throw SceneIOError.truncated(file: file, offset: sc.pos, expected: "\(e.count) \(e.name) rows (header line \(e.line))")
            }
            let keep = e.properties.indices.map { want?.contains(e.properties[$0].name) == true && e.index(of: e.properties[$0].name) == $0 }
            var scalarCols: [[Double]] = e.properties.map { _ in [] }
            var listCols: [PLYList] = e.properties.map { _ in PLYList() }
            for k in e.properties.indices where keep[k] {
                if e.properties[k].isList { listCols[k].offsets.reserveCapacity(e.count + 1) } else { scalarCols[k].reserveCapacity(e.count) }
            }
            for row in 0..<e.count {
                for (k, p) in e.properties.enumerated() {
                    if p.isList {
                        let nd = try sc.number("a list count for \(p.name) (\(e.name) row \(row))")
                        guard let n = exactInt(nd), n >= 0, n <= (view.count - sc.pos) / 2 + 1 else {
                            throw SceneIOError.badLine(file: file, line: sc.line, expected: "a list count that fits the file", found: "\(nd)")
                        }
                        for _ in 0..<n {
                            let v = try sc.number("a \(p.type.name) item of \(p.name) (\(e.name) row \(row))")
                            if keep[k] { listCols[k].values.append(v) }
                        }
                        if keep[k] { listCols[k].offsets.append(listCols[k].values.count) }
                    } else {
                        let v = try sc.number("a \(p.type.name) value for \(p.name) (\(e.name) row \(row))")
                        if keep[k] { scalarCols[k].append(v) }
                    }
                }
                if row & 0xFFFF == 0xFFFF { progress?(sc.pos, view.count) }
            }
            for (k, p) in e.properties.enumerated() where keep[k] {
                if p.isList { cols.lists[p.name] = listCols[k] } else { cols.scalars[p.name] = scalarCols[k] }
            }
            if want != nil { out[e.name] = cols }
        }
        progress?(view.count, view.count)
        return out
    }
}
