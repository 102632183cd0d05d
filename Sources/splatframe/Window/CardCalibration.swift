// CardCalibration — screen calibration with a bank card: an ISO/IEC 7810 ID-1 outline
// (85.60 × 53.98 mm) the user resizes until it matches a real card held against the screen.
import Foundation
import Procedural
import RenderCore

/// The state of one calibration: the outline's width in display pixels. The screen's physical
/// size follows from it (square pixels): width_mm = display_px × 85.60 / outline_px.
struct CardCalibration {
    static let cardWidthMM = 85.60, cardHeightMM = 53.98
    /// The outline's width in display pixels.
    var outlineWidth: Double
    /// The display's size in pixels.
    let displayWidth: Int, displayHeight: Int

    /// Starts from the current estimate of the screen (metres) on a display of the given pixels.
    init(screen: ScreenGeometry, displayWidth: Int, displayHeight: Int) {
        self.displayWidth = max(1, displayWidth); self.displayHeight = max(1, displayHeight)
        outlineWidth = Self.cardWidthMM / (Double(screen.width) * 1000) * Double(self.displayWidth)
        outlineWidth = min(max(outlineWidth, 40), Double(self.displayWidth) * 0.9)
    }

    /// The screen's physical size (millimetres) the outline implies.
    var screenMM: (width: Double, height: Double) {
        let mmPerPixel = Self.cardWidthMM / outlineWidth
        return (Double(displayWidth) * mmPerPixel, Double(displayHeight) * mmPerPixel)
    }

    /// Grows (positive) or shrinks the outline by `steps` (1 % each; Shift for 0.1 %).
    mutating func resize(steps: Double, fine: Bool) {
        outlineWidth *= pow(1 + (fine ? 0.001 : 0.01), steps)
        outlineWidth = min(max(outlineWidth, 40), Double(displayWidth) * 0.95)
    }

    /// Draws the card outline (rounded corners of 3.18 mm, as ID-1) centred in `fb`, which shows
    /// the whole display (drawable pixels may differ from display pixels: scaled).
    func draw(into fb: Framebuffer, text: WindowText) {
        fb.clear(color: 0xFF30_2820)
        let scale = Double(fb.width) / Double(displayWidth)
        let w = outlineWidth * scale, h = w * Self.cardHeightMM / Self.cardWidthMM
        let r = w * 3.18 / Self.cardWidthMM
        let cx = Double(fb.width) / 2, cy = Double(fb.height) / 2
        let x0 = cx - w / 2, y0 = cy - h / 2
        // Inside test with rounded corners; outline 2 px wide.
        func inside(_ x: Double, _ y: Double, inset: Double) -> Bool {
            let ax = x0 + inset, bx = x0 + w - inset, ay = y0 + inset, by = y0 + h - inset, rr = max(0, r - inset)
            guard x >= ax, x <= bx, y >= ay, y <= by else { return false }
            let qx = x < ax + rr ? ax + rr : (x > bx - rr ? bx - rr : x)
            let qy = y < ay + rr ? ay + rr : (y > by - rr ? by - rr : y)
            return (x - qx) * (x - qx) + (y - qy) * (y - qy) <= rr * rr
        }
        for y in max(0, Int(y0) - 2)..<min(fb.height, Int(y0 + h) + 3) {
            for x in max(0, Int(x0) - 2)..<min(fb.width, Int(x0 + w) + 3) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                if inside(px, py, inset: 0) {
                    fb.color[y * fb.width + x] = inside(px, py, inset: 2) ? 0xFF50_4838 : 0xFFFF_FFFF
                }
            }
        }
        let mm = screenMM
        TextPanel.draw([
            "Screen calibration",
            "Hold a bank card (ID-1, 85.60 × 53.98 mm) flat against the screen over the outline.",
            "Arrows or the mouse wheel resize the outline until it matches (Shift: finely).",
            "Enter saves the screen size to the config file; Esc cancels.",
            String(format: "Screen: %.0f × %.0f mm (%.1f\" diagonal)", mm.width, mm.height,
                   (mm.width * mm.width + mm.height * mm.height).squareRoot() / 25.4),
        ], into: fb, text: text, atTop: true)
    }
}
