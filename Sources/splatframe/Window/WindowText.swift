// WindowText — the window's text: DejaVu Sans Mono through SDL2_ttf, found with fontconfig;
// the built-in bitmap font only when no font can be had (with a notice).
import CFontconfig
import CSDL2
import CSDL2TTF
import Foundation
import Procedural
import RenderCore

/// Draws text into framebuffers. Rendered lines are cached by (text, colour) for a few frames,
/// so a HUD whose lines repeat costs no rasterisation. Frame loop only (not thread-safe).
final class WindowText {
    private var font: OpaquePointer?
    /// Where the font came from, or why the bitmap font is used.
    let origin: String
    /// Pixel size of the TrueType font.
    let pointSize: Int32
    private struct Line { var width: Int, height: Int, alpha: [UInt8]; var lastUse: Int }
    private var cache: [String: Line] = [:]
    private var frame = 0

    /// Opens `family` (fontconfig name, default a monospaced DejaVu) at `size` pixels.
    init(family: String = "DejaVu Sans Mono:style=Book", size: Int32 = 15) {
        pointSize = size
        if TTF_WasInit() == 0 && TTF_Init() != 0 {
            origin = "bitmap font (SDL2_ttf did not start: \(String(cString: SDL_GetError())))"
            return
        }
        guard let path = Self.fontFile(family) else {
            origin = "bitmap font (fontconfig found no \(family); apt-get install fonts-dejavu-core)"
            return
        }
        guard let f = TTF_OpenFont(path, size) else {
            origin = "bitmap font (\(path): \(String(cString: SDL_GetError())))"
            return
        }
        font = f
        origin = path
    }

    deinit { if let font { TTF_CloseFont(font) } }

    /// Whether a TrueType font is in use.
    var isTrueType: Bool { font != nil }

    /// The file fontconfig matches for `family`, if it exists.
    static func fontFile(_ family: String) -> String? {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        defer { FcConfigDestroy(config) }
        guard let pattern = FcNameParse(family) else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        let path = String(cString: file)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Height of a line in pixels.
    var lineHeight: Int { font.map { Int(TTF_FontLineSkip($0)) } ?? (BitmapFont.glyphHeight + 4) * 2 }

    /// Width of `text` in pixels.
    func width(_ text: String) -> Int {
        guard let font else { return text.count * (BitmapFont.glyphWidth + 1) * 2 }
        return line(text, font: font)?.width ?? 0
    }

    /// Draws `text` with its top-left at (x, y), white with a dark shadow, clipped to `maxWidth`.
    func draw(_ text: String, x: Int, y: Int, into fb: Framebuffer, color: UInt32 = 0xFFFF_FFFF, maxWidth: Int? = nil) {
        guard let font else {
            BitmapFont.draw(text.uppercased(), x: x + 1, y: y + 1, scale: 2, color: 0xFF00_0000, into: fb.color, width: fb.width, height: fb.height)
            BitmapFont.draw(text.uppercased(), x: x, y: y, scale: 2, color: color, into: fb.color, width: fb.width, height: fb.height)
            return
        }
        guard let l = line(text, font: font) else { return }
        blend(l, x: x + 1, y: y + 1, color: 0xFF00_0000, into: fb, maxWidth: maxWidth)
        blend(l, x: x, y: y, color: color, into: fb, maxWidth: maxWidth)
    }

    /// Call once per frame: drops lines unused for a second or so.
    func endFrame() {
        frame += 1
        if cache.count > 64 { cache = cache.filter { frame - $0.value.lastUse < 60 } }
    }

    private func line(_ text: String, font: OpaquePointer) -> Line? {
        if var l = cache[text] { l.lastUse = frame; cache[text] = l; return l }
        guard !text.isEmpty else { return nil }
        guard let surface = TTF_RenderUTF8_Blended(font, text, SDL_Color(r: 255, g: 255, b: 255, a: 255)) else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let argb = SDL_ConvertSurfaceFormat(surface, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else { return nil }
        defer { SDL_FreeSurface(argb) }
        let w = Int(argb.pointee.w), h = Int(argb.pointee.h), pitch = Int(argb.pointee.pitch)
        var alpha = [UInt8](repeating: 0, count: w * h)
        let base = argb.pointee.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<h { for x in 0..<w { alpha[y * w + x] = base[y * pitch + x * 4 + 3] } }
        let l = Line(width: w, height: h, alpha: alpha, lastUse: frame)
        cache[text] = l
        return l
    }

    private func blend(_ l: Line, x: Int, y: Int, color: UInt32, into fb: Framebuffer, maxWidth: Int?) {
        let r = Float(color & 0xFF), g = Float(color >> 8 & 0xFF), b = Float(color >> 16 & 0xFF)
        let x1 = min(fb.width, x + min(l.width, maxWidth ?? l.width)), y1 = min(fb.height, y + l.height)
        guard x < x1, y < y1 else { return }
        for py in max(0, y)..<y1 {
            for px in max(0, x)..<x1 {
                let a = Float(l.alpha[(py - y) * l.width + (px - x)]) / 255
                if a == 0 { continue }
                let i = py * fb.width + px, d = fb.color[i]
                let dr = Float(d & 0xFF), dg = Float(d >> 8 & 0xFF), db = Float(d >> 16 & 0xFF)
                let nr = UInt32(dr + (r - dr) * a), ng = UInt32(dg + (g - dg) * a), nb = UInt32(db + (b - db) * a)
                fb.color[i] = 0xFF00_0000 | nb << 16 | ng << 8 | nr
            }
        }
    }
}
