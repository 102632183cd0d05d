// ImageIO — picture files in and out.
//
// Job: read PNG and JPEG into `RGBAImage`, write PNG, and read/write PFM depth maps.
// Contract: no SDL anywhere below the executable. PNG goes through libpng's simplified API and
// JPEG through libjpeg-turbo's TurboJPEG API (Debian libpng-dev, libturbojpeg0-dev): the
// two formats the project reads, from the libraries every Linux desktop already has, with no
// display, no video subsystem and no SDL in the link of SceneIO, Viewer or the tests. (SDL2_image
// as its own target would still link libSDL2.) The format is chosen by magic bytes, not by name;
// errors name the file and what was wrong; a hostile header cannot ask for more than `maxSide`².
import CPNG
import CTurboJPEG
import Foundation
import RenderCore

/// Errors from reading or writing picture files.
public enum ImageFileError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case malformed(path: String, offset: Int, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read image: \(reason)"
        case let .unwritable(path, reason): return "\(path): cannot write image: \(reason)"
        case let .malformed(path, offset, reason): return "\(path): byte \(offset): \(reason)"
        }
    }
}

/// Reading and writing pictures through libpng and libjpeg-turbo.
public enum ImageFile {
    /// Largest picture accepted (per side), so a hostile header cannot ask for gigabytes.
    public static let maxSide = 16384
    /// Largest file read (bytes).
    public static let maxFileBytes = 512 << 20

    /// Loads a PNG or JPEG file as 8-bit RGBA (sRGB-encoded, straight alpha; JPEG alpha is 255).
    public static func load(_ path: String) throws -> RGBAImage {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ImageFileError.unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        let size = RegularFile.bytes(path) ?? 0
        guard size <= maxFileBytes else { throw ImageFileError.unreadable(path: path, reason: "larger than \(maxFileBytes >> 20) MiB") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImageFileError.unreadable(path: path, reason: "cannot read file")
        }
        return try decode(data, name: path)
    }

    /// Decodes PNG or JPEG bytes; `name` names the source in errors.
    public static func decode(_ data: Data, name: String) throws -> RGBAImage {
        let bytes = [UInt8](data.prefix(8))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try decodePNG(data, name: name) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try decodeJPEG(data, name: name) }
        throw ImageFileError.malformed(path: name, offset: 0, reason: "not a PNG or JPEG file (unknown magic bytes)")
    }

    static func checkSize(_ w: Int, _ h: Int, name: String) throws {
        guard w > 0, h > 0, w <= maxSide, h <= maxSide else {
            throw ImageFileError.unreadable(path: name, reason: "unsupported size \(w)×\(h) (at most \(maxSide) per side)")
        }
    }

    static func decodePNG(_ data: Data, name: String) throws -> RGBAImage {
        var image = png_image()
        image.version = splatframe_png_image_version
        defer { png_image_free(&image) }
        func message() -> String {
            withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw ImageFileError.malformed(path: name, offset: 0, reason: "PNG: \(message())") }
        let w = Int(image.width), h = Int(image.height)
        try checkSize(w, h, name: name)
        image.format = splatframe_png_format_rgba
        var pixels = [UInt32](repeating: 0, count: w * h)
        let ok = data.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(w * 4), nil) }
        }
        guard ok != 0 else { throw ImageFileError.malformed(path: name, offset: 0, reason: "PNG: \(message())") }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    static func decodeJPEG(_ data: Data, name: String) throws -> RGBAImage {
        guard let handle = tjInitDecompress() else { throw ImageFileError.unreadable(path: name, reason: "TurboJPEG did not start") }
        defer { tjDestroy(handle) }
        func message() -> String { String(cString: tjGetErrorStr2(handle)) }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBytes { buf in
            tjDecompressHeader3(handle, buf.bindMemory(to: UInt8.self).baseAddress, UInt(buf.count), &w, &h, &subsampling, &colorspace)
        }
        guard header == 0 else { throw ImageFileError.malformed(path: name, offset: 0, reason: "JPEG: \(message())") }
        try checkSize(Int(w), Int(h), name: name)
        var pixels = [UInt32](repeating: 0, count: Int(w) * Int(h))
        let status = data.withUnsafeBytes { buf in
            pixels.withUnsafeMutableBytes { dst in
                tjDecompress2(handle, buf.bindMemory(to: UInt8.self).baseAddress, UInt(buf.count),
                              dst.bindMemory(to: UInt8.self).baseAddress, w, w * 4, h, Int32(TJPF_RGBA.rawValue), 0)
            }
        }
        // A warning (e.g. a truncated but displayable file) still yields a picture.
        if status != 0 && tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            throw ImageFileError.malformed(path: name, offset: 0, reason: "JPEG: \(message())")
        }
        return RGBAImage(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// Writes a picture as PNG (RGBA, 8 bits per channel).
    public static func savePNG(_ image: RGBAImage, to path: String) throws {
        var png = png_image()
        png.version = splatframe_png_image_version
        png.width = UInt32(image.width); png.height = UInt32(image.height)
        png.format = splatframe_png_format_rgba
        defer { png_image_free(&png) }
        let ok = image.pixels.withUnsafeBytes { png_image_write_to_file(&png, path, 0, $0.baseAddress, Int32(image.width * 4), nil) }
        guard ok != 0 else {
            let m = withUnsafeBytes(of: png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw ImageFileError.unwritable(path: path, reason: m.isEmpty ? "libpng failed" : m)
        }
    }
}
