import Foundation
import ImageIO
import RenderCore

/// Compares two pictures the way golden-image tests do: PSNR over RGB and the largest
/// per-channel difference, writing actual and diff images when asked.
public struct ImageComparison: CustomStringConvertible {
    /// Peak signal-to-noise ratio over the RGB channels in dB (+inf when identical).
    public let psnr: Double
    /// Largest absolute per-channel difference (0…255) over RGB.
    public let maxError: Int
    /// Number of pixels with a channel differing by more than the tolerance.
    public let differingPixels: Int
    /// The per-channel difference up to which a pixel counts as equal.
    public let tolerance: Int

    /// Compares `actual` with `expected` (same size required; a size mismatch gives psnr 0, maxError 255).
    public init(_ actual: RGBAImage, _ expected: RGBAImage, tolerance: Int = 0) {
        self.tolerance = tolerance
        guard actual.width == expected.width, actual.height == expected.height else {
            psnr = 0; maxError = 255; differingPixels = actual.pixels.count; return
        }
        var se = 0.0, mx = 0, diff = 0
        for i in 0..<actual.pixels.count {
            let a = PackedColor.channels(actual.pixels[i]), b = PackedColor.channels(expected.pixels[i])
            var any = false
            for c in 0..<3 {
                let d = abs(Int(a[c]) - Int(b[c]))
                if d > tolerance { any = true }
                mx = max(mx, d); se += Double(d * d)
            }
            if any { diff += 1 }
        }
        let mse = se / Double(actual.pixels.count * 3)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        maxError = mx; differingPixels = diff
    }

    public var description: String {
        "PSNR \(psnr.isFinite ? String(format: "%.2f", psnr) : "inf") dB, max error \(maxError), \(differingPixels) pixels differ by more than \(tolerance)"
    }

    /// A picture of the absolute differences, amplified ×8 for visibility.
    public static func diffImage(_ a: RGBAImage, _ b: RGBAImage) -> RGBAImage {
        guard a.width == b.width, a.height == b.height else { return a }
        var out = a
        for i in 0..<a.pixels.count {
            let x = PackedColor.channels(a.pixels[i]), y = PackedColor.channels(b.pixels[i])
            func d(_ c: Int) -> UInt8 { UInt8(min(255, abs(Int(x[c]) - Int(y[c])) * 8)) }
            out.pixels[i] = PackedColor.pack(r: d(0), g: d(1), b: d(2))
        }
        return out
    }

    /// Writes `name-actual.png`, `name-expected.png` and `name-diff.png` into the failure
    /// folder (`$SPLATFRAME_TEST_OUTPUT` or `.build/test-failures`) and returns its path.
    @discardableResult
    public static func writeFailureImages(name: String, actual: RGBAImage, expected: RGBAImage) -> String {
        let dir = ProcessInfo.processInfo.environment["SPLATFRAME_TEST_OUTPUT"]
            ?? TestData.projectRoot.appendingPathComponent(".build/test-failures").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? ImageFile.savePNG(actual, to: "\(dir)/\(name)-actual.png")
        try? ImageFile.savePNG(expected, to: "\(dir)/\(name)-expected.png")
        try? ImageFile.savePNG(diffImage(actual, expected), to: "\(dir)/\(name)-diff.png")
        return dir
    }
}
