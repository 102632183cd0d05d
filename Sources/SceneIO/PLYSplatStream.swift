// SceneIO — PLYSplatStream: a binary little-endian 3DGS PLY read a block of rows at a time with
// `pread` (no mapping: what it holds is one block, whatever the file's size, 4 GB and more).
// Each row is converted exactly as the fast whole-file path converts it (`PLYReader.readSplatsFast`:
// exp of the scales, sigmoid of the opacity, normalised rotation, rest coefficients as stored).
import Foundation
import RenderCore

/// A binary little-endian float32 3DGS PLY, block by block (see the file header).
public final class PLYSplatStream: SplatStream {
    private let input: ReadOnlyFile
    private let rows: PLYSplatRows
    private let file: String
    private var row = 0
    private var buffer: [UInt8] = []
    public let count: Int
    public var shDegree: Int { rows.layout.degree }
    public let warnings: [String]
    public var isBounded: Bool { true }

    /// Most header bytes read before giving up on streaming (the whole-file reader then decides).
    static let headerLimit = 1 << 20

    /// The stream of `path`, or nil when it is not a PLY this reader takes (another encoding or
    /// layout, a 2DGS capture, not 3DGS at all): the caller reads it whole.
    /// - Throws: `SceneIOError` when the file cannot be opened or its rows are cut short.
    public static func open(_ path: String) throws -> PLYSplatStream? {
        guard let f = try ReadOnlyFile.open(path, headBytes: headerLimit), f.head.starts(with: Array("ply".utf8)) else { return nil }
        let parsed: (PLYSplatRows?, [String])? = try f.head.withUnsafeBytes { raw in
            guard let h = try? PLYHeader.parse(ByteView(bytes: raw, file: path)), PLYReader.kind(of: h) == .gaussians else { return nil }
            var warnings = h.warnings
            guard PLYReader.renderMode(h, file: path, warnings: &warnings) != .twoD else { return nil }
            return (try PLYSplatRows(h, file: path), warnings)
        }
        guard let (maybeRows, warnings) = parsed, let rows = maybeRows else { return nil }
        let v = rows.vertex, size = f.size
        guard let total = SizeMath.mul(v.count, rows.stride), rows.start <= size, total <= size - rows.start else {
            throw SceneIOError.truncated(file: path, offset: min(rows.start, size), expected: "\(v.count) vertex rows of \(rows.stride) bytes (header line \(v.line))")
        }
        return PLYSplatStream(input: f, rows: rows, warnings: warnings)
    }

    private init(input: ReadOnlyFile, rows: PLYSplatRows, warnings: [String]) {
        self.input = input; self.rows = rows; file = input.path; self.warnings = warnings; count = rows.vertex.count
    }

    public func next(maxSplats: Int) throws -> SplatCloud? {
        guard row < count else { return nil }
        let n = min(count - row, max(1, maxSplats)), stride = rows.stride
        if buffer.count < n * stride { buffer = [UInt8](repeating: 0, count: n * stride) }
        try read(bytes: n * stride, at: rows.start + row * stride, into: 0)
        var cloud = SplatCloud(shDegree: shDegree)
        cloud.reserveCapacity(n)
        let first = row
        try decode(n, into: &cloud) { first + $0 }
        row += n
        return cloud
    }

    /// Every `step`-th splat of the file (rows 0, step, 2·step…), read row by row without
    /// disturbing `next`: a coarse subsample of a capture too large to hold, in bounded memory
    /// (a group of rows at a time besides the result).
    public func sample(step: Int) throws -> SplatCloud {
        let step = max(1, step), stride = rows.stride
        let total = (count + step - 1) / step, group = 4096
        var cloud = SplatCloud(shDegree: shDegree)
        cloud.reserveCapacity(total)
        if buffer.count < group * stride { buffer = [UInt8](repeating: 0, count: group * stride) }
        var k = 0
        while k < total {
            let n = min(group, total - k)
            if step == 1 {
                try read(bytes: n * stride, at: rows.start + k * stride, into: 0)
            } else {
                for i in 0..<n { try read(bytes: stride, at: rows.start + (k + i) * step * stride, into: i * stride) }
            }
            let first = k
            try decode(n, into: &cloud) { (first + $0) * step }
            k += n
        }
        return cloud
    }

    /// Reads `bytes` bytes at file offset `offset` into `buffer` at `position`.
    private func read(bytes: Int, at offset: Int, into position: Int) throws {
        try buffer.withUnsafeMutableBytes { raw in
            try input.read(into: raw.baseAddress! + position, bytes, at: offset, expected: "\(count) vertex rows of \(rows.stride) bytes")
        }
    }

    /// Appends the `n` rows at the start of `buffer` to `cloud`; `rowNumber(i)` is the file row of
    /// the i-th (for errors).
    private func decode(_ n: Int, into cloud: inout SplatCloud, rowNumber: (Int) -> Int) throws {
        let rows = self.rows, restPer = rows.rest.count, stride = rows.stride, file = self.file
        var rest = [Float](repeating: 0, count: restPer)
        try buffer.withUnsafeBytes { raw in
            let view = ByteView(bytes: raw, file: file)
            for i in 0..<n {
                let r = i * stride
                let p = Vec3(view.f32(r + rows.x), view.f32(r + rows.y), view.f32(r + rows.z))
                guard p.x.isFinite && p.y.isFinite && p.z.isFinite else {
                    throw SceneIOError.badValue(file: file, element: "vertex", row: rowNumber(i), expected: "finite x y z", found: "\(p.x) \(p.y) \(p.z)")
                }
                for m in 0..<restPer { rest[m] = view.f32(r + rows.rest[m]) }
                cloud.append(position: p,
                             scale: Vec3(expf(view.f32(r + rows.scale.0)), expf(view.f32(r + rows.scale.1)), expf(view.f32(r + rows.scale.2))),
                             rotation: Quaternion(w: view.f32(r + rows.rot.0), x: view.f32(r + rows.rot.1),
                                                  y: view.f32(r + rows.rot.2), z: view.f32(r + rows.rot.3)).normalized,
                             opacity: sigmoid(view.f32(r + rows.opacity)),
                             dc: Vec3(view.f32(r + rows.dc.0), view.f32(r + rows.dc.1), view.f32(r + rows.dc.2)), rest: rest)
            }
        }
    }
}
