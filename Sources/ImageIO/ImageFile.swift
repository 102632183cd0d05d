// ImageIO — picture files in and out.
//
// Job: read PNG/JPEG (and whatever else SDL2_image decodes) into `RGBAImage`, write PNG, and
// read/write PFM depth maps. Contract: uses only SDL2_image's codecs and SDL surfaces (no
// video subsystem, so it works without a display); errors name the file and what was wrong.
import CSDL2
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

/// Reading and writing pictures through SDL2_image.
public enum ImageFile {
    /// Largest picture accepted (per side), so a hostile header cannot ask for gigabytes.
    public static let maxSide = 16384

    /// Loads a PNG, JPEG, BMP, … file as 8-bit RGBA.
    public static func load(_ path: String) throws -> RGBAImage {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ImageFileError.unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        guard let surface = IMG_Load(path) else {
            throw ImageFileError.unreadable(path: path, reason: String(cString: SDL_GetError()))
        }
        defer { SDL_FreeSurface(surface) }
        guard let rgba = SDL_ConvertSurfaceFormat(surface, SDL_PIXELFORMAT_RGBA32.rawValue, 0) else {
            throw ImageFileError.unreadable(path: path, reason: String(cString: SDL_GetError()))
        }
        defer { SDL_FreeSurface(rgba) }
        let w = Int(rgba.pointee.w), h = Int(rgba.pointee.h), pitch = Int(rgba.pointee.pitch)
        guard w > 0, h > 0, w <= maxSide, h <= maxSide else {
            throw ImageFileError.unreadable(path: path, reason: "unsupported size \(w)×\(h)")
        }
        var pixels = [UInt32](repeating: 0, count: w * h)
        SDL_LockSurface(rgba)
        defer { SDL_UnlockSurface(rgba) }
        let base = rgba.pointee.pixels!.assumingMemoryBound(to: UInt8.self)
        pixels.withUnsafeMutableBytes { dst in
            for y in 0..<h {
                memcpy(dst.baseAddress! + y * w * 4, base + y * pitch, w * 4)
            }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    /// Writes a picture as PNG (RGBA, 8 bits per channel).
    public static func savePNG(_ image: RGBAImage, to path: String) throws {
        var pixels = image.pixels
        let ok: Int32 = pixels.withUnsafeMutableBytes { buf in
            guard let s = SDL_CreateRGBSurfaceWithFormatFrom(buf.baseAddress, Int32(image.width), Int32(image.height), 32,
                                                            Int32(image.width * 4), SDL_PIXELFORMAT_RGBA32.rawValue) else { return -1 }
            defer { SDL_FreeSurface(s) }
            return IMG_SavePNG(s, path)
        }
        if ok != 0 { throw ImageFileError.unwritable(path: path, reason: String(cString: SDL_GetError())) }
    }
}
