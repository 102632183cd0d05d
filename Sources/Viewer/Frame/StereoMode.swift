// StereoMode — how two eyes' frames become one picture: red/cyan anaglyph or side by side.

/// Stereo output. Each eye gets its own off-axis frustum from its own position (the head pose
/// ± half the measured eye span, or ± IPD/2 along the screen's x axis).
public enum StereoMode: Sendable, Equatable, CustomStringConvertible {
    /// Red (left eye) / cyan (right eye) glasses. `dubois`: Eric Dubois' least-squares matrices
    /// (less retinal rivalry, truer colours); otherwise the plain channel split (R from the left
    /// eye, G and B from the right).
    case anaglyph(dubois: Bool)
    /// Side by side for 3D TVs and video glasses: `half` squeezes each eye into half the width
    /// (HSBS: the display stretches each half back); full SBS keeps each eye's aspect, so in a
    /// window each half is letterboxed (and `render --stereo sbs` writes a double-width image).
    case sideBySide(half: Bool)

    /// The mode a name stands for: `anaglyph` (or `anaglyph:dubois`), `anaglyph:plain`, `sbs`,
    /// `hsbs` (case-insensitive); nil for anything else.
    public init?(name s: String) {
        switch s.trimmingCharacters(in: .whitespaces).lowercased() {
        case "anaglyph", "anaglyph:dubois": self = .anaglyph(dubois: true)
        case "anaglyph:plain": self = .anaglyph(dubois: false)
        case "sbs": self = .sideBySide(half: false)
        case "hsbs": self = .sideBySide(half: true)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .anaglyph(let d): return d ? "anaglyph" : "anaglyph:plain"
        case .sideBySide(let h): return h ? "hsbs" : "sbs"
        }
    }

    /// Dubois' red-cyan matrices (rows: output R, G, B; columns: input R, G, B), for the left
    /// and the right eye's colour.
    static let duboisLeft: [Float] = [0.456, 0.500, 0.176, -0.040, -0.038, -0.016, -0.015, -0.021, -0.005]
    static let duboisRight: [Float] = [-0.043, -0.088, -0.002, 0.378, 0.734, -0.018, -0.072, -0.113, 1.226]
}
