// SceneIO — GaussianPLYStreamWriter: a 3DGS PLY written a block of splats at a time, so a capture
// larger than memory can be written (the header names the count up front; the bytes are those
// `GaussianPLYWriter.encode` gives for the whole cloud).
import Foundation
import RenderCore

/// Writes one 3DGS PLY block by block: `append` each block, then `finish`.
public final class GaussianPLYStreamWriter {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var closed = false
    /// Splats the header promises, and splats written so far.
    public let count: Int
    public private(set) var written = 0
    /// SH degree every block must have.
    public let shDegree: Int

    /// Creates (or truncates) `path` and writes the header of `count` splats of degree `shDegree`.
    /// - Throws: `SceneIOError.unwritable`.
    public init(path: String, count: Int, shDegree: Int) throws {
        self.path = path; self.count = count; self.shDegree = shDegree
        fd = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SceneIOError.unwritable(file: path, reason: String(cString: strerror(errno))) }
        do { try put(GaussianPLYWriter.header(count: count, restCount: SplatCloud.restCount(degree: shDegree))) } catch {
            Foundation.close(fd); closed = true
            throw error
        }
    }

    deinit { if !closed { Foundation.close(fd) } }

    /// Writes `block`'s rows after those written so far.
    /// - Throws: `SceneIOError.unwritable` (disk full…), or when the block has another SH degree or
    ///   more splats than the header left.
    public func append(_ block: SplatCloud) throws {
        guard block.shDegree == shDegree, written + block.count <= count else {
            throw SceneIOError.unwritable(file: path, reason: "a block of \(block.count) splats of SH degree \(block.shDegree) after \(written) of \(count) of degree \(shDegree)")
        }
        buffer.removeAll(keepingCapacity: true)
        GaussianPLYWriter.appendRows(block, to: &buffer)
        try put(buffer)
        written += block.count
    }

    /// Closes the file; every promised splat must have been written.
    public func finish() throws {
        guard !closed else { return }
        closed = true
        let ok = Foundation.close(fd) == 0
        guard written == count else { throw SceneIOError.unwritable(file: path, reason: "\(written) of \(count) splats written") }
        guard ok else { throw SceneIOError.unwritable(file: path, reason: String(cString: strerror(errno))) }
    }

    private func put(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let r = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                if r < 0 && errno == EINTR { continue }
                guard r > 0 else { throw SceneIOError.unwritable(file: path, reason: String(cString: strerror(errno))) }
                done += r
            }
        }
    }
}
