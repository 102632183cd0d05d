// RGBFrame+Files — still images as frames, and scaled/shifted copies (synthetic motion for tests
// and calibration checks), through the native layer's OpenCV.
import CWebcam

extension RGBFrame {
    /// Reads an image file (PNG, JPEG…) as a frame stamped `timestamp`.
    public static func read(path: String, timestamp: Double = 0) throws -> RGBFrame {
        var w: Int32 = 0, h: Int32 = 0
        let (size, message) = withNativeErrorBuffer { sfw_image_read_rgb(path, nil, 0, &w, &h, $0, $1) }
        guard size >= 0, w > 0, h > 0, Int(w) * Int(h) <= 8192 * 8192 else { throw MediaError.capture(message) }
        var frame = RGBFrame(width: Int(w), height: Int(h), pixels: [UInt8](repeating: 0, count: Int(w) * Int(h) * 3),
                             timestamp: timestamp)
        let capacity = Int32(frame.pixels.count)
        let (ok, m2) = withNativeErrorBuffer { err, len in
            frame.pixels.withUnsafeMutableBufferPointer { sfw_image_read_rgb(path, $0.baseAddress, capacity, &w, &h, err, len) }
        }
        guard ok >= 0 else { throw MediaError.capture(m2) }
        return frame
    }

    /// This frame scaled by `scale` about the origin then shifted by (`tx`, `ty`) pixels, into a
    /// `width`×`height` frame (bilinear, replicated borders): a feature at (u, v) lands at
    /// (scale·u + tx, scale·v + ty).
    public func warped(scale: Double, tx: Double, ty: Double, width: Int? = nil, height: Int? = nil) throws -> RGBFrame {
        let w = width ?? self.width, h = height ?? self.height
        var out = RGBFrame(width: w, height: h, pixels: [UInt8](repeating: 0, count: w * h * 3), timestamp: timestamp, index: index)
        let (status, message) = withNativeErrorBuffer { err, len in
            pixels.withUnsafeBufferPointer { src in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    sfw_warp_rgb(src.baseAddress, Int32(self.width), Int32(self.height), 0, dst.baseAddress, Int32(w), Int32(h), 0,
                                 Float(scale), Float(tx), Float(ty), err, len)
                }
            }
        }
        guard status == 0 else { throw MediaError.capture(message) }
        return out
    }

    /// Writes the frame to `path`, its format by the extension (.png, .jpg, .bmp, .ppm…).
    /// Throws `MediaError.capture` naming the file.
    public func write(path: String) throws {
        let (status, message) = withNativeErrorBuffer { err, len in
            pixels.withUnsafeBufferPointer { sfw_image_write_rgb(path, $0.baseAddress, Int32(width), Int32(height), 0, err, len) }
        }
        guard status == 0 else { throw MediaError.capture(message.isEmpty ? "\(path): cannot write" : message) }
    }
}
