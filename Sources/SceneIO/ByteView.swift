// SceneIO — ByteView: bounds-checked little/big-endian reads over a mapped file's bytes.
import Foundation

/// Read-only view of a file's bytes plus its name for error messages. Reads named
/// `…Unchecked` assume the caller checked the range with `need`.
struct ByteView {
    /// The bytes (valid for the duration of the `withUnsafeBytes` call that made this view).
    let bytes: UnsafeRawBufferPointer
    /// File name used in errors.
    let file: String

    var count: Int { bytes.count }

    /// Throws `truncated` unless `[offset, offset + n)` lies inside the bytes.
    @inline(__always) func need(_ offset: Int, _ n: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, n >= 0, offset <= bytes.count, n <= bytes.count - offset else {
            throw SceneIOError.truncated(file: file, offset: max(0, min(offset, bytes.count)), expected: what())
        }
    }

    @inline(__always) func u8(_ o: Int) -> UInt8 { bytes.load(fromByteOffset: o, as: UInt8.self) }
    @inline(__always) func u16(_ o: Int) -> UInt16 { UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
    @inline(__always) func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
    @inline(__always) func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
    @inline(__always) func f32(_ o: Int) -> Float { Float(bitPattern: u32(o)) }

    /// Printable sample of the bytes at an offset (for error messages).
    func sample(_ o: Int, _ n: Int = 16) -> String { SceneIOError.show(bytes, o, n) }
}

/// Size arithmetic that reports overflow as an error instead of trapping.
enum SizeMath {
    /// a · b, or nil on overflow or negative inputs.
    @inline(__always) static func mul(_ a: Int, _ b: Int) -> Int? {
        guard a >= 0, b >= 0 else { return nil }
        let (r, o) = a.multipliedReportingOverflow(by: b)
        return o ? nil : r
    }
    /// a + b, or nil on overflow or negative inputs.
    @inline(__always) static func add(_ a: Int, _ b: Int) -> Int? {
        guard a >= 0, b >= 0 else { return nil }
        let (r, o) = a.addingReportingOverflow(b)
        return o ? nil : r
    }
}

/// Float → Int conversion that never traps: nil for NaN, infinities and out-of-range values
/// and for values with a fractional part.
@inline(__always) func exactInt(_ d: Double) -> Int? {
    guard d.isFinite, d >= -9.0e18, d <= 9.0e18, d.rounded(.towardZero) == d else { return nil }
    return Int(d)
}

/// Parses the decimal number in `bytes[range]` (C `strtod` syntax, whole token), or nil.
@inline(__always) func parseNumber(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Double? {
    let n = range.count
    guard n > 0, n < 64 else { return nil }
    // Fast path: [-]digits[.digits] with at most 15 significant digits, exact in Double
    // arithmetic up to the final division.
    var i = range.lowerBound
    var neg = false
    let c0 = bytes[i]
    if c0 == UInt8(ascii: "-") { neg = true; i += 1 } else if c0 == UInt8(ascii: "+") { i += 1 }
    var mant: UInt64 = 0, digits = 0, frac = 0, seenDot = false, ok = i < range.upperBound
    while i < range.upperBound {
        let c = bytes[i]
        if c >= 48 && c <= 57 {
            mant = mant &* 10 &+ UInt64(c - 48); digits += 1
            if seenDot { frac += 1 }
        } else if c == UInt8(ascii: ".") && !seenDot {
            seenDot = true
        } else { ok = false; break }
        i += 1
    }
    if ok && digits > 0 && digits <= 15 {
        let v = Double(mant) / fastPow10[frac]
        return neg ? -v : v
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buf -> Double? in
        var j = 0
        for k in range { buf[j] = CChar(bitPattern: bytes[k]); j += 1 }
        buf[j] = 0
        var end: UnsafeMutablePointer<CChar>? = nil
        let v = strtod(buf.baseAddress!, &end)
        guard let e = end, e - buf.baseAddress! == n else { return nil }
        return v
    }
}

private let fastPow10: [Double] = (0...15).map { p in var v = 1.0; for _ in 0..<p { v *= 10 }; return v }
