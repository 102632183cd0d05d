// TextPanel — a dimmed box with lines of text drawn over the frame (help, calibration notes).
import Procedural
import RenderCore

enum TextPanel {
    /// Draws `lines` in a dark translucent box centred on the framebuffer (or near its top).
    static func draw(_ lines: [String], into fb: Framebuffer, scale requested: Int? = nil, atTop: Bool = false) {
        let scale = requested ?? (fb.width >= 1600 ? 2 : 1)
        let lineHeight = (BitmapFont.glyphHeight + 4) * scale
        let longest = lines.map(\.count).max() ?? 0
        let w = min(fb.width, longest * (BitmapFont.glyphWidth + 1) * scale + 24)
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
            BitmapFont.draw(line, x: x0 + 12, y: y0 + 10 + i * lineHeight, scale: scale, color: 0xFFFF_FFFF,
                            into: fb.color, width: fb.width, height: fb.height)
        }
    }
}

extension TextPanel {
    /// One line of white text with a dark shadow at (x, y).
    static func drawLine(_ text: String, x: Int, y: Int, scale: Int = 1, into fb: Framebuffer) {
        BitmapFont.draw(text, x: x + 1, y: y + 1, scale: scale, color: 0xFF00_0000, into: fb.color, width: fb.width, height: fb.height)
        BitmapFont.draw(text, x: x, y: y, scale: scale, color: 0xFFFF_FFFF, into: fb.color, width: fb.width, height: fb.height)
    }
}
