// SceneIO — WebPImage: one WebP image decoded to 8-bit RGBA through libwebp.
//
// Contract: the header's dimensions are checked (at least `minTexels`, at most `maxTexels`)
// before the pixel buffer is allocated; the buffer is ours and libwebp decodes into it.
import CWebP
import Foundation

/// An RGBA image (row-major, 4 bytes per texel, non-premultiplied), as SOG stores attributes:
/// texel i is splat i.
struct WebPImage {
    /// Width and height in texels.
    let width: Int, height: Int
    /// `width * height * 4` bytes, R, G, B, A per texel.
    let rgba: [UInt8]

    /// Texels in the image.
    var texels: Int { width * height }

    /// Decodes WebP bytes.
    /// - Parameters:
    ///   - bytes: the whole WebP file.
    ///   - minTexels: texels the image must hold (the splat count).
    ///   - maxTexels: the largest image accepted (bounds memory at `4 * maxTexels` bytes).
    ///   - file, entry: the container and member names for errors.
    /// - Throws: `SceneIOError.badEntry` for a non-WebP, too small, too large or corrupt image.
    init(decoding bytes: UnsafeRawBufferPointer, minTexels: Int, maxTexels: Int, file: String, entry: String) throws {
        func fail(_ expected: String, _ found: String) -> SceneIOError {
            .badEntry(file: file, entry: entry, expected: expected, found: found)
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw fail("a WebP image", "an empty file") }
        let data = base.assumingMemoryBound(to: UInt8.self)
        var w: Int32 = 0, h: Int32 = 0
        guard WebPGetInfo(data, bytes.count, &w, &h) != 0, w > 0, h > 0 else {
            throw fail("a WebP image", "\(SceneIOError.show(bytes, 0, 16)) (\(bytes.count) bytes)")
        }
        let (width, height) = (Int(w), Int(h))     // libwebp caps each side at 16383
        let texels = width * height
        guard texels >= minTexels else {
            throw fail("at least \(minTexels) texels (one per splat)", "\(width)x\(height) = \(texels) texels")
        }
        guard texels <= maxTexels else {
            throw fail("at most \(maxTexels) texels", "\(width)x\(height) = \(texels) texels")
        }
        var rgba = [UInt8](repeating: 0, count: texels * 4)
        let ok = rgba.withUnsafeMutableBufferPointer { out -> Bool in
            guard let o = out.baseAddress else { return false }
            return WebPDecodeRGBAInto(data, bytes.count, o, out.count, Int32(width * 4)) != nil
        }
        guard ok else { throw fail("valid WebP data for a \(width)x\(height) image", "a decoding error") }
        self.width = width; self.height = height; self.rgba = rgba
    }
}
