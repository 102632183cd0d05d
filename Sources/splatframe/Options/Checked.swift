// Checked — range-checked numbers for options: one rule each (finite, within the range), one
// message naming the range and its unit.
import ArgumentParser
import Foundation
import Viewer

/// Transforms for `@Option(transform:)` that read a number and refuse what is out of range,
/// NaN or infinite. Counts accept the suffixes k and M (`150k`, `1.5M`).
enum Checked {
    /// An integer in `range`; `unit` names what it counts (for the message).
    static func integer(in range: ClosedRange<Int>, _ unit: String) -> @Sendable (String) throws -> Int {
        { text in
            guard let v = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(v) else {
                throw ArgumentRule("expected a whole number of \(unit), \(range.lowerBound)…\(range.upperBound)")
            }
            return v
        }
    }

    /// A size in bytes written `2147483648`, `512M`, `2G` or `1.5G` (K, M, G, T: powers of 1024;
    /// a trailing B allowed), in `range`.
    static func bytes(in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            var t = text.trimmingCharacters(in: .whitespaces).uppercased()
            if t.hasSuffix("B") { t.removeLast() }
            var scale = 1.0
            if let last = t.last, let power = "KMGT".firstIndex(of: last) {
                scale = pow(1024, Double("KMGT".distance(from: "KMGT".startIndex, to: power) + 1)); t.removeLast()
            }
            guard let v = Double(t), v.isFinite, v >= 0, v * scale < 9e18, range.contains(Int(v * scale)) else {
                throw ArgumentRule("expected a size in bytes, \(range.lowerBound >> 20) MB…\(range.upperBound >> 30) GB (K, M, G allowed: 512M, 2G)")
            }
            return Int(v * scale)
        }
    }

    /// A count written `150000`, `150k` or `1.5M`, in `range`.
    static func count(in range: ClosedRange<Int>, _ unit: String) -> @Sendable (String) throws -> Int {
        { text in
            guard let v = parseCount(text), range.contains(v) else {
                throw ArgumentRule("expected a number of \(unit), \(range.lowerBound)…\(range.upperBound) (k and M allowed: 150k, 1.5M)")
            }
            return v
        }
    }

    /// A finite number in `range`; `unit` follows the bounds in the message ("0.5…60 s").
    static func number(in range: ClosedRange<Double>, _ unit: String) -> @Sendable (String) throws -> Double {
        { text in
            guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite, range.contains(v) else {
                throw ArgumentRule("expected a number \(format(range.lowerBound))…\(format(range.upperBound)) \(unit)")
            }
            return v
        }
    }

    /// A finite number greater than `lower` and at most `upper`.
    static func number(above lower: Double, upTo upper: Double, _ unit: String) -> @Sendable (String) throws -> Double {
        { text in
            guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite, v > lower, v <= upper else {
                throw ArgumentRule("expected a number > \(format(lower)) and ≤ \(format(upper)) \(unit)")
            }
            return v
        }
    }

    /// `150000`, `150k`, `1M` → the count (Viewer's one count grammar).
    static func parseCount(_ s: String) -> Int? { CountText.parse(s) }

    private static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
