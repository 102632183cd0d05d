// TextPanel — a dimmed box with lines of text drawn over the frame (help, calibration notes).
import RenderCore

enum TextPanel {
    /// Draws `lines` in a dark translucent box centred on the framebuffer (or near its top).
    static func draw(_ lines: [String], into fb: Framebuffer, text: WindowText, atTop: Bool = false) {
        let lineHeight = text.lineHeight
        let longest = lines.map { text.width($0) }.max() ?? 0
        let w = min(fb.width, longest + 24)
        let h = min(fb.height, lines.count * lineHeight + 20)
        let x0 = (fb.width - w) / 2, y0 = atTop ? min(fb.height - h, 20) : (fb.height - h) / 2
        for y in y0..<(y0 + h) {
            for x in x0..<(x0 + w) {
                let p = fb.color[y * fb.width + x]
                // Darken to a quarter (per channel), keep alpha.
                fb.color[y * fb.width + x] = (p >> 2 & 0x003F_3F3F) | 0xFF00_0000
            }
        }
        for (i, line) in lines.enumerated() {
            text.draw(line, x: x0 + 12, y: y0 + 10 + i * lineHeight, into: fb, maxWidth: w - 16)
        }
    }
}
