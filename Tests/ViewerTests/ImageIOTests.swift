// ImageIO through libpng and libjpeg-turbo: round trips, real files, bad input, and no SDL in the link.
import Foundation
import Testing
import ImageIO
import RenderCore
import TestSupport

@Suite("ImageIO")
struct ImageIOTests {
    @Test func pngRoundTripKeepsEveryByteIncludingAlpha() throws {
        let pixels = (0..<(37 * 19)).map { i in UInt32(truncatingIfNeeded: i &* 2_654_435_761) }
        let image = RGBAImage(width: 37, height: 19, pixels: pixels)
        let path = TestData.temporaryDirectory("imageio").appendingPathComponent("rt.png").path
        try ImageFile.savePNG(image, to: path)
        let back = try ImageFile.load(path)
        #expect(back.width == 37 && back.height == 19 && back.pixels == pixels)
    }

    @Test(.enabled(if: TestData.isAvailable, TestData.skipMessage))
    func realJPEGAndPNGTexturesDecode() throws {
        let jpeg = try ImageFile.load(TestData.path("textures/starry_night.jpg"))
        let png = try ImageFile.load(TestData.path("video/astronaut.png"))
        #expect(png.width == 512 && png.height == 512)
        #expect(jpeg.width > 0 && jpeg.pixels.allSatisfy { $0 >> 24 == 0xFF }, "JPEG alpha is opaque")
    }

    @Test func badFilesGiveOneLineErrorsNamingThem() throws {
        let dir = TestData.temporaryDirectory("imageio-bad")
        let garbage = dir.appendingPathComponent("garbage.png").path
        try Data("hello, not an image".utf8).write(to: URL(fileURLWithPath: garbage))
        let truncated = dir.appendingPathComponent("truncated.png").path
        let good = dir.appendingPathComponent("good.png").path
        try ImageFile.savePNG(RGBAImage(width: 64, height: 64, pixels: [UInt32](repeating: 0xFF00_FF00, count: 4096)), to: good)
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(40)).write(to: URL(fileURLWithPath: truncated))
        for path in [garbage, truncated, dir.appendingPathComponent("missing.jpg").path] {
            #expect(throws: ImageFileError.self) { try ImageFile.load(path) }
            do { _ = try ImageFile.load(path) } catch {
                #expect("\(error)".contains(path) && !"\(error)".contains("\n"), "\(error)")
            }
        }
        #expect(throws: ImageFileError.self) { try ImageFile.savePNG(RGBAImage(width: 1, height: 1, pixels: [0]), to: "/nonexistent-dir/x.png") }
    }

    @Test func testBinaryDoesNotLinkSDL() throws {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let ldd = try BinaryLocator.run("/usr/bin/ldd", [exe])
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(ldd.stdout.contains("libpng16") && !ldd.stdout.contains("libSDL2"), "\(exe):\n\(ldd.stdout)")
    }
}
