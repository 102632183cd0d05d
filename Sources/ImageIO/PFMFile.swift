import Foundation

/// Portable float map (PFM, single channel "Pf"): the depth-map format of `--depth-out`.
/// Rows are stored bottom to top; a negative scale marks little-endian data.
public enum PFMFile {
    /// Writes `values` (row-major from the top-left, `width * height` floats) as a little-endian PFM.
    public static func save(width: Int, height: Int, values: [Float], to path: String) throws {
        var data = Data("Pf\n\(width) \(height)\n-1.0\n".utf8)
        data.reserveCapacity(data.count + values.count * 4)
        for row in stride(from: height - 1, through: 0, by: -1) {
            values[row * width..<(row + 1) * width].withUnsafeBytes { data.append(contentsOf: $0) }
        }
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw ImageFileError.unwritable(path: path, reason: "\(error.localizedDescription)")
        }
    }

    /// Reads a single-channel PFM back into top-left row order.
    public static func load(_ path: String) throws -> (width: Int, height: Int, values: [Float]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImageFileError.unreadable(path: path, reason: "no such file")
        }
        let bytes = [UInt8](data)
        var tokens: [String] = []
        var i = 0
        while tokens.count < 4 && i < bytes.count && i < 256 {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            var t = ""
            while i < bytes.count, !(bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) {
                t.append(Character(UnicodeScalar(bytes[i]))); i += 1
            }
            tokens.append(t)
        }
        i += 1 // the single whitespace byte after the scale
        guard tokens.count == 4, tokens[0] == "Pf", let w = Int(tokens[1]), let h = Int(tokens[2]), let scale = Float(tokens[3]),
              w > 0, h > 0, w <= 65536, h <= 65536 else {
            throw ImageFileError.malformed(path: path, offset: 0, reason: "not a single-channel PFM header")
        }
        guard bytes.count - i >= w * h * 4 else {
            throw ImageFileError.malformed(path: path, offset: bytes.count, reason: "truncated: expected \(w * h * 4) bytes of floats after the header")
        }
        var out = [Float](repeating: 0, count: w * h)
        for row in 0..<h {
            for x in 0..<w {
                let o = i + ((h - 1 - row) * w + x) * 4
                var bits = UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
                if scale > 0 { bits = bits.byteSwapped }
                out[row * w + x] = Float(bitPattern: bits)
            }
        }
        return (w, h, out)
    }
}
