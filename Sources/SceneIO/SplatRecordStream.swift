// SceneIO — SplatRecordStream: an antimatter15 `.splat` file read a block of 32-byte records at
// a time with `pread`, each block decoded by `SplatFileReader.decode` (the whole-file reader's
// own decoding, so the values are bit-identical). What it holds is one block, whatever the size.
import Foundation
import RenderCore

/// A `.splat` file, block by block (see the file header).
public final class SplatRecordStream: SplatStream {
    private let input: ReadOnlyFile
    private let file: String
    private var record = 0
    private var buffer: [UInt8] = []
    public let count: Int
    public var shDegree: Int { 0 }
    public var warnings: [String] { [] }
    public var isBounded: Bool { true }

    /// The stream of `path`, or nil when `SceneFile` would not read it as a `.splat` (another
    /// extension, or bytes that are another format's).
    /// - Throws: `SceneIOError` when the file cannot be opened or is not whole records.
    public static func open(_ path: String) throws -> SplatRecordStream? {
        guard SceneFormat(extension: (path as NSString).pathExtension) == .splat else { return nil }
        guard let f = try ReadOnlyFile.open(path, headBytes: 4096) else { return nil }
        let size = f.size, head = f.head
        // `SceneFormat.detect` sees the whole file's length for its STL test; give it that here.
        if size >= 84 {
            let n = Int(UInt32(head[80]) | UInt32(head[81]) << 8 | UInt32(head[82]) << 16 | UInt32(head[83]) << 24)
            if 84 + 50 * n == size { return nil }
        }
        guard head.withUnsafeBytes({ SceneFormat.detect($0, name: path) }) == .splat else { return nil }
        guard size % SplatFileReader.recordSize == 0 else {
            throw SceneIOError.truncated(file: path, offset: size - size % SplatFileReader.recordSize,
                                         expected: "whole 32-byte records (file size \(size) is not a multiple of 32)")
        }
        return SplatRecordStream(input: f, count: size / SplatFileReader.recordSize)
    }

    private init(input: ReadOnlyFile, count: Int) { self.input = input; file = input.path; self.count = count }

    public func next(maxSplats: Int) throws -> SplatCloud? {
        guard record < count else { return nil }
        let n = min(count - record, max(1, maxSplats))
        var cloud = SplatCloud(shDegree: 0)
        cloud.reserveCapacity(n)
        try append(records: record..<(record + n), into: &cloud)
        record += n
        return cloud
    }

    /// Every `step`-th record (0, step, 2·step…), read a record at a time without disturbing `next`.
    public func sample(step: Int) throws -> SplatCloud {
        let step = max(1, step)
        var cloud = SplatCloud(shDegree: 0)
        cloud.reserveCapacity((count + step - 1) / step)
        for r in stride(from: 0, to: count, by: step) { try append(records: r..<(r + 1), into: &cloud) }
        return cloud
    }

    /// Reads and decodes `records` (within the file) onto `cloud`.
    private func append(records: Range<Int>, into cloud: inout SplatCloud) throws {
        let size = SplatFileReader.recordSize, bytes = records.count * size, start = records.lowerBound * size
        if buffer.count < bytes { buffer = [UInt8](repeating: 0, count: bytes) }
        try buffer.withUnsafeMutableBytes { raw in
            try input.read(into: raw.baseAddress!, bytes, at: start, expected: "\(count) records of 32 bytes")
            try SplatFileReader.decode(ByteView(bytes: UnsafeRawBufferPointer(raw), file: file), records: records.count, fileOffset: start, into: &cloud)
        }
    }
}
