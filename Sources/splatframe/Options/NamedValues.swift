// NamedValues — option values that are words or small grammars: filters, head sources, axis
// maps, stereo modes, blend kernels, up axes, splat budgets, face detectors, SPZ versions. Each
// wraps the one parser of the module that owns the concept and turns its error into the
// option's message; the closed sets of words are `ArgumentChoice`s, which `--help` and shell
// completions list.
import ArgumentParser
import HeadTracking
import RenderCore
import SplatRender
import SplatLOD
import Viewer
import WebcamTracking

// The library's types are public, so their conformances spell out `init(argument:)`: ArgumentGrammar's
// default is internal.

/// The message of a module's spec error, without the "invalid WHAT 'VALUE':" ArgumentParser already says.
private func rule(_ error: Error) -> ArgumentRule {
    if case let HeadTrackingError.badSpec(_, _, expected) = error { return ArgumentRule("expected \(expected)") }
    return ArgumentRule("\(error)")
}

extension FilterSpec: ArgumentGrammar {
    public init?(argument: String) { guard let value = try? Self.parse(argument) else { return nil }; self = value }

    static func parse(_ text: String) throws -> FilterSpec {
        do { return try FilterSpec(parsing: text) } catch { throw rule(error) }
    }

    public static var defaultCompletionKind: CompletionKind { .list(["none", "ema", "oneeuro"]) }
}

extension HeadSourceSpec: ArgumentGrammar {
    public init?(argument: String) { guard let value = try? Self.parse(argument) else { return nil }; self = value }

    /// The source `text` names; a `fixed:X,Y,Z` eye obeys `--eye`'s rule (in front of the screen,
    /// within 100 m of it).
    static func parse(_ text: String) throws -> HeadSourceSpec {
        let spec: HeadSourceSpec
        do { spec = try HeadSourceSpec(parsing: text) } catch { throw rule(error) }
        if case .fixed(let eye) = spec { _ = try EyePoint(checking: eye) }
        return spec
    }

    public static var defaultCompletionKind: CompletionKind { .list(["mouse", "webcam", "udp", "fixed:0,0,0.6"]) }
}

extension PoseTarget: ArgumentGrammar {
    public init?(argument: String) { guard let value = try? Self.parse(argument) else { return nil }; self = value }

    static func parse(_ text: String) throws -> PoseTarget {
        do { return try PoseTarget(parsing: text) } catch { throw rule(error) }
    }
}

extension AxisMapping: ArgumentGrammar {
    public init?(argument: String) { guard let value = try? Self.parse(argument) else { return nil }; self = value }

    static func parse(_ text: String) throws -> AxisMapping {
        do { return try AxisMapping(parsing: text) } catch { throw rule(error) }
    }
}

extension StereoMode: ArgumentGrammar {
    public init?(argument: String) { guard let value = try? Self.parse(argument) else { return nil }; self = value }

    static func parse(_ text: String) throws -> StereoMode {
        guard let m = StereoMode(name: text) else { throw ArgumentRule("expected \(listed(allValueStrings))") }
        return m
    }

    public static var allValueStrings: [String] { ["anaglyph", "anaglyph:plain", "sbs", "hsbs"] }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension BlendKernel: ArgumentChoice {}

extension UpAxis: ArgumentChoice {
    /// `y`, `+y`, `-y`, … (case-insensitive).
    public init?(argument: String) { self.init(parsing: argument) }
}

extension DetectorBackend: ArgumentChoice {
    /// A back end's name; `mediapipe` (its name before the landmarker) means BlazeFace.
    public init?(argument: String) { self.init(name: argument) }
}

extension WebcamCalibration.Fit: ArgumentChoice {}

/// `--spz-version`: the SPZ versions `convert` writes.
enum SPZVersion: String, ArgumentChoice {
    /// gzip, read everywhere.
    case v3 = "3"
    /// zstd streams.
    case v4 = "4"

    var number: Int { self == .v3 ? 3 : 4 }
}

/// `--splat-budget`: a splat count (`150000`, `150k`, `1.5M`), `none`/`off` for no budget, or
/// `auto`: the window's frame-time governor chooses it (the default; headless commands then draw
/// at the default budget, `bench` governed only with `--target-fps`).
struct SplatBudget: ArgumentGrammar, Equatable {
    /// Splats a frame may draw; nil draws every splat.
    var splats: Int?
    /// `auto`: not pinned.
    var automatic = false
    static let maxSplats = 1_000_000_000

    static func parse(_ text: String) throws -> SplatBudget {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "none" || t == "off" { return SplatBudget(splats: nil) }
        if t == "auto" { return SplatBudget(splats: LODOptions.defaultBudget, automatic: true) }
        guard let n = CountText.parse(t), n >= 1, n <= maxSplats else {
            throw ArgumentRule("expected a splat count 1…\(maxSplats) (e.g. 150k), auto or none")
        }
        return SplatBudget(splats: n)
    }
}
