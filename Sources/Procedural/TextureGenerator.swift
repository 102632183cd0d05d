import Foundation
import RenderCore

/// Procedural pictures for walls without a photo and for the floating targets.
public enum TextureGenerator {
    /// A labelled grid: a tinted background, thin lines every `size/cells` pixels, thicker
    /// lines every fourth, and `label` in the middle — shows perspective and parallax clearly.
    public static func labelledGrid(label: String, tint: Vec3, size: Int = 512, cells: Int = 16) -> RGBAImage {
        let bg = PackedColor.pack(Vec4(tint.x * 0.35 + 0.08, tint.y * 0.35 + 0.08, tint.z * 0.35 + 0.08, 1))
        let thin = PackedColor.pack(Vec4(tint.x * 0.6 + 0.2, tint.y * 0.6 + 0.2, tint.z * 0.6 + 0.2, 1))
        let thick = PackedColor.pack(Vec4(0.92, 0.92, 0.92, 1))
        var img = RGBAImage(width: size, height: size, fill: bg)
        let step = max(2, size / cells)
        for y in 0..<size {
            for x in 0..<size {
                let gx = x % step, gy = y % step
                let major = (x / step) % 4 == 0 && gx < 3 || (y / step) % 4 == 0 && gy < 3
                if major { img[x, y] = thick } else if gx == 0 || gy == 0 { img[x, y] = thin }
            }
        }
        let scale = max(1, size / 64)
        let w = BitmapFont.width(of: label) * scale
        BitmapFont.draw(label, x: (size - w) / 2, y: (size - BitmapFont.glyphHeight * scale) / 2, scale: scale,
                        color: thick, into: &img)
        return img
    }

    /// A bullseye target: concentric red and white rings on a transparent-looking dark edge.
    public static func bullseye(size: Int = 256, rings: Int = 5) -> RGBAImage {
        var img = RGBAImage(width: size, height: size, fill: PackedColor.pack(r: 240, g: 240, b: 240))
        let red = PackedColor.pack(r: 210, g: 30, b: 35), white = PackedColor.pack(r: 245, g: 245, b: 245)
        let c = Float(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let d = ((Float(x) + 0.5 - c) * (Float(x) + 0.5 - c) + (Float(y) + 0.5 - c) * (Float(y) + 0.5 - c)).squareRoot() / c
                let ring = Int(d * Float(rings) * 2)
                img[x, y] = ring % 2 == 0 ? red : white
            }
        }
        return img
    }

    /// A checkerboard of two colours with `cells` squares per side.
    public static func checker(size: Int = 256, cells: Int = 8, a: UInt32, b: UInt32) -> RGBAImage {
        var img = RGBAImage(width: size, height: size, fill: a)
        let step = max(1, size / cells)
        for y in 0..<size { for x in 0..<size where (x / step + y / step) % 2 == 1 { img[x, y] = b } }
        return img
    }
}
