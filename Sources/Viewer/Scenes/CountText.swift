// CountText — the one grammar for counts written by people: `150000`, `150k`, `1.5M`.

/// Reads splat and triangle counts (`generate:150k`, `--splat-budget 1.5M`, `--sweep splats=10k,1M`).
public enum CountText {
    /// Largest count read: past it (or for NaN, infinity, negatives and garbage) the answer is
    /// nil, so no conversion can trap whatever a user types.
    public static let limit = 1_000_000_000_000

    /// `150000`, `150k`, `1M`, `1.5m` → the count; nil for anything else.
    public static func parse(_ s: String) -> Int? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if let v = Int(t) { return v >= 0 && v <= limit ? v : nil }
        let multiplier: Double
        switch t.last {
        case "k": multiplier = 1e3
        case "m": multiplier = 1e6
        default: return nil
        }
        guard let v = Double(t.dropLast()), v.isFinite, v >= 0, v * multiplier <= Double(limit) else { return nil }
        return Int((v * multiplier).rounded())
    }
}
