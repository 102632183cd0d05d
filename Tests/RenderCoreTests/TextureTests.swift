import RenderCore
import Testing

@Suite("Texture storage")
struct TextureTests {
    static func picture(_ w: Int, _ h: Int) -> RGBAImage {
        RGBAImage(width: w, height: h, pixels: (0..<(w * h)).map { UInt32($0) &* 2_654_435_761 | 0xFF00_0000 })
    }

    @Test("levels read back unchanged through the padded layout", arguments: [(7, 5), (1, 1), (16, 3), (513, 257)])
    func roundTrip(size: (Int, Int)) {
        let img = Self.picture(size.0, size.1)
        let t = Texture(img)
        #expect(t.image(level: 0) == img)
        #expect(t.levels.last!.width == 1 && t.levels.last!.height == 1)
        // The padding column and row repeat the first column and row (wrapped neighbours).
        let l = t.levels[0]
        for y in 0...l.height {
            #expect(t.texels[l.offset + y * l.stride + l.width] == img[0, y % l.height])
        }
        for x in 0..<l.width { #expect(t.texels[l.offset + l.height * l.stride + x] == img[x, 0]) }
    }

    @Test("each mip level is the 2×2 box filter of the one above")
    func mipChain() {
        let img = RGBAImage(width: 4, height: 2, pixels: [0xFF00_0000, 0xFF00_0004, 0xFF00_0008, 0xFF00_000C,
                                                          0xFF00_0010, 0xFF00_0014, 0xFF00_0018, 0xFF00_001C])
        let t = Texture(img)
        let l1 = t.image(level: 1)
        #expect(l1.width == 2 && l1.height == 1)
        #expect(l1.pixels == [0xFF00_000A, 0xFF00_0012])   // (0+4+16+20+2)/4 = 10, (8+12+24+28+2)/4 = 18
    }
}

@Suite("Texture in-place updates")
struct TextureUpdateTests {
    @Test("an RGB update gives the same levels and padding as a texture built from the picture",
          arguments: [(7, 5), (1, 1), (1, 6), (16, 3), (513, 257), (720, 528)])
    func rgbUpdateMatchesConstruction(size: (Int, Int)) {
        let (w, h) = size
        var rgb = [UInt8](repeating: 0, count: w * h * 3 + 5)
        var state: UInt32 = 12345
        for i in rgb.indices { state = state &* 1_664_525 &+ 1_013_904_223; rgb[i] = UInt8(truncatingIfNeeded: state >> 24) }
        let picture = RGBAImage(width: w, height: h, pixels: (0..<(w * h)).map { i in
            UInt32(rgb[3 * i]) | UInt32(rgb[3 * i + 1]) << 8 | UInt32(rgb[3 * i + 2]) << 16 | 0xFF00_0000
        })
        let built = Texture(picture)
        let updated = Texture(width: w, height: h)
        updated.update(Self.noise(w, h))                  // something else first: the update must overwrite all
        rgb.withUnsafeBufferPointer { updated.update(rgb: $0.baseAddress!, rowBytes: w * 3) }
        #expect(updated.levels.count == built.levels.count && updated.texelCount == built.texelCount)
        let same = (0..<built.texelCount).allSatisfy { built.texels[$0] == updated.texels[$0] }
        #expect(same, "every level and padding texel equal")
    }

    @Test("rebuilt levels are the rounded 2×2 box filter per channel")
    func boxFilter() {
        let t = Texture(RGBAImage(width: 2, height: 2, pixels: [0x01FF_0000, 0x0300_FF01, 0x0000_0002, 0xFF00_0003]))
        let l1 = t.image(level: 1)
        // r: (0+1+2+3+2)/4 = 2; g: (0+255+0+0+2)/4 = 64; b: (255+0+0+0+2)/4 = 64; a: (1+3+0+255+2)/4 = 65
        #expect(l1.pixels == [0x4140_4002])
    }

    static func noise(_ w: Int, _ h: Int) -> RGBAImage {
        RGBAImage(width: w, height: h, pixels: (0..<(w * h)).map { UInt32($0) &* 2_246_822_519 })
    }
}
