// CameraInset — the `c` key: a small picture of what the webcam sees, with the face box, the
// eye points and the estimated distance, drawn into the bottom-right corner of the frame.
import HeadTracking
import Procedural
import RenderCore

enum CameraInset {
    /// Draws `preview` scaled to a quarter of the framebuffer's width (nearest sampling; the
    /// image is mirrored so that it moves like a mirror for the viewer).
    static func draw(_ preview: CameraPreview, into fb: Framebuffer, text: WindowText) {
        let w = max(64, fb.width / 4), h = w * preview.height / max(1, preview.width)
        guard preview.width > 0, preview.height > 0, w < fb.width, h < fb.height,
              preview.rgb.count >= preview.width * preview.height * 3 else { return }
        let x0 = fb.width - w - 8, y0 = fb.height - h - 8
        let sx = Double(preview.width) / Double(w), sy = Double(preview.height) / Double(h)
        preview.rgb.withUnsafeBufferPointer { rgb in
            for y in 0..<h {
                let v = min(preview.height - 1, Int(Double(y) * sy))
                for x in 0..<w {
                    let u = min(preview.width - 1, Int(Double(w - 1 - x) * sx))   // mirrored
                    let i = (v * preview.width + u) * 3
                    fb.color[(y0 + y) * fb.width + x0 + x] = 0xFF00_0000 | UInt32(rgb[i + 2]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i])
                }
            }
        }
        // Image point → inset pixel (mirrored).
        func map(_ p: SIMD2<Double>) -> (Int, Int) { (x0 + w - 1 - Int(p.x / sx), y0 + Int(p.y / sy)) }
        func plot(_ x: Int, _ y: Int, _ c: UInt32) {
            if x >= x0 && x < x0 + w && y >= y0 && y < y0 + h { fb.color[y * fb.width + x] = c }
        }
        let green: UInt32 = 0xFF40_FF40, red: UInt32 = 0xFF30_30FF
        if let b = preview.faceBox {
            let (ax, ay) = map(SIMD2(b.x, b.y)), (bx, by) = map(SIMD2(b.x + b.z, b.y + b.w))
            for x in min(ax, bx)...max(ax, bx) { plot(x, ay, green); plot(x, by, green) }
            for y in min(ay, by)...max(ay, by) { plot(ax, y, green); plot(bx, y, green) }
        }
        for e in preview.eyes {
            let (ex, ey) = map(e)
            for d in -4...4 { plot(ex + d, ey, red); plot(ex, ey + d, red) }
        }
        let label = preview.distance.map { String(format: "%@  %.2f m", preview.label, $0) } ?? "\(preview.label)  no face"
        text.draw(label, x: x0 + 4, y: y0 + 4, into: fb, maxWidth: w - 8)
    }
}
