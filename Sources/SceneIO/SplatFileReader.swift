// SceneIO — SplatFileReader: antimatter15 `.splat` (32-byte records, no header), file frame kept.
import RenderCore

/// Reads `.splat` files: per record float32 position ×3, float32 linear scale ×3, RGBA8,
/// rotation bytes w, x, y, z encoded as q·128 + 128.
enum SplatFileReader {
    /// Bytes per record.
    static let recordSize = 32

    static func read(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = view.file
        guard view.count % recordSize == 0 else {
            throw SceneIOError.truncated(file: file, offset: view.count - view.count % recordSize, expected: "whole 32-byte records (file size \(view.count) is not a multiple of 32)")
        }
        let n = view.count / recordSize
        var cloud = SplatCloud(shDegree: 0)
        cloud.reserveCapacity(n)
        var done = 0
        while done < n {
            let m = min(n - done, 0x10000)
            try decode(ByteView(bytes: UnsafeRawBufferPointer(rebasing: view.bytes[(done * recordSize)...]), file: file),
                       records: m, fileOffset: done * recordSize, into: &cloud)
            done += m
            progress?(done * recordSize, view.count)
        }
        progress?(view.count, view.count)
        return ReadResult(scene: .splats(cloud), format: .splat, variant: "32-byte records", version: "",
                          elements: [SceneInfo.Element(name: "splat", count: n, properties: ["float x y z", "float scale_0..2", "uchar r g b a", "uchar rot w x y z"])])
    }

    /// Appends the first `records` records of `view` (which starts at byte `fileOffset` of the
    /// file, for errors) to `cloud`: the whole-file reader and `SplatRecordStream` both come here.
    static func decode(_ view: ByteView, records: Int, fileOffset: Int, into cloud: inout SplatCloud) throws {
        for i in 0..<records {
            let o = i * recordSize
            let p = Vec3(view.f32(o), view.f32(o + 4), view.f32(o + 8))
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.badBytes(file: view.file, offset: fileOffset + o, expected: "a finite position", found: "\(p.x) \(p.y) \(p.z)")
            }
            let s = Vec3(view.f32(o + 12), view.f32(o + 16), view.f32(o + 20))
            let rgba = Vec4(Float(view.u8(o + 24)), Float(view.u8(o + 25)), Float(view.u8(o + 26)), Float(view.u8(o + 27))) / 255
            let q = Quaternion(w: (Float(view.u8(o + 28)) - 128) / 128, x: (Float(view.u8(o + 29)) - 128) / 128,
                               y: (Float(view.u8(o + 30)) - 128) / 128, z: (Float(view.u8(o + 31)) - 128) / 128).normalized
            cloud.append(position: p, scale: s, rotation: q, opacity: rgba.w,
                         dc: SplatCloud.dcFromColor(Vec3(rgba.x, rgba.y, rgba.z)))
        }
    }
}
