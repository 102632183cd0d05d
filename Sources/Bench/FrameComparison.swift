// FrameComparison — how far one drawn frame is from another: PSNR over RGB, a smaller frame
// compared at the larger one's size (nearest pixel), as a reduced render scale is shown.
import Foundation
import RenderCore

/// Picture differences between frames.
enum FrameComparison {
    /// PSNR (dB) of `frame` against `reference` over R, G and B (8 bits each); `frame` is sampled
    /// at `reference`'s size by nearest pixel when the two differ. Identical frames: +∞.
    static func psnr(_ frame: Framebuffer, against reference: Framebuffer) -> Double {
        let w = reference.width, h = reference.height
        var se = 0.0
        for y in 0..<h {
            let fy = min(frame.height - 1, y * frame.height / h)
            var row = 0.0
            for x in 0..<w {
                let fx = min(frame.width - 1, x * frame.width / w)
                let a = PackedColor.channels(frame.color[fy * frame.width + fx]), b = PackedColor.channels(reference.color[y * w + x])
                for c in 0..<3 { let d = Double(Int(a[c]) - Int(b[c])); row += d * d }
            }
            se += row
        }
        let mse = se / Double(w * h * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
