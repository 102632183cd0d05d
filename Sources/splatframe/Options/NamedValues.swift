// NamedValues — option values that are words or small grammars: filters, head sources, axis
// maps, stereo modes, blend kernels, up axes, splat budgets. Each wraps the one parser of the
// module that owns the concept and turns its error into the option's message.
import ArgumentParser
import HeadTracking
import RenderCore
import SplatRender
import Viewer

/// The message of a module's spec error, without the "invalid WHAT 'VALUE':" ArgumentParser already says.
private func rule(_ error: Error) -> ArgumentRule {
    if case let HeadTrackingError.badSpec(_, _, expected) = error { return ArgumentRule("expected \(expected)") }
    return ArgumentRule("\(error)")
}

extension FilterSpec: ArgumentValue {
    static func parse(_ text: String) throws -> FilterSpec {
        do { return try FilterSpec(parsing: text) } catch { throw rule(error) }
    }
}

extension HeadSourceSpec: ArgumentValue {
    static func parse(_ text: String) throws -> HeadSourceSpec {
        do { return try HeadSourceSpec(parsing: text) } catch { throw rule(error) }
    }
}

extension PoseTarget: ArgumentValue {
    static func parse(_ text: String) throws -> PoseTarget {
        do { return try PoseTarget(parsing: text) } catch { throw rule(error) }
    }
}

extension AxisMapping: ArgumentValue {
    static func parse(_ text: String) throws -> AxisMapping {
        do { return try AxisMapping(parsing: text) } catch { throw rule(error) }
    }
}

extension StereoMode: ArgumentValue {
    static func parse(_ text: String) throws -> StereoMode {
        guard let m = StereoMode(name: text) else { throw ArgumentRule("expected anaglyph, anaglyph:plain, sbs or hsbs") }
        return m
    }
}

extension BlendKernel: ArgumentValue {
    static func parse(_ text: String) throws -> BlendKernel {
        guard let k = BlendKernel(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw ArgumentRule("expected lanes8 or blocks")
        }
        return k
    }
}

extension UpAxis: ArgumentValue {
    static func parse(_ text: String) throws -> UpAxis {
        guard let a = UpAxis(parsing: text) else { throw ArgumentRule("expected one of y, -y, z, -z, x, -x") }
        return a
    }
}

/// `--splat-budget`: a splat count (`150000`, `150k`, `1.5M`), or `none`/`off` for no budget.
struct SplatBudget: ArgumentValue, Equatable {
    /// Splats a frame may draw; nil draws every splat.
    var splats: Int?
    static let maxSplats = 1_000_000_000

    static func parse(_ text: String) throws -> SplatBudget {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "none" || t == "off" { return SplatBudget(splats: nil) }
        guard let n = CountText.parse(t), n >= 1, n <= maxSplats else {
            throw ArgumentRule("expected a splat count 1…\(maxSplats) (e.g. 150k) or none")
        }
        return SplatBudget(splats: n)
    }
}
