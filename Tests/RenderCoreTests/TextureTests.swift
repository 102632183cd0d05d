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
