import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe frustum`: prints the off-axis projection and view matrices for an eye position.
struct FrustumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frustum", abstract: "Print the off-axis projection and view matrices (column-major JSON) for an eye position.")

    @OptionGroup var eyeOption: EyeOption
    @OptionGroup var screenOptions: ScreenOptions
    @Option(parsing: .unconditional, help: "Near-plane distance in metres, more than 0 and at most 1000000.", transform: Checked.number(above: 0, upTo: 1e6, "m"))
    var near: Double = Double(OffAxisFrustum.defaultNear)
    @Option(parsing: .unconditional, help: "Far-plane distance in metres, more than --near and at most 1000000.", transform: Checked.number(above: 0, upTo: 1e6, "m"))
    var far: Double = Double(OffAxisFrustum.defaultFar)

    func validate() throws {
        guard eyeOption.eye != nil else { throw OptionError("--eye", "", "missing: give the eye position X,Y,Z in metres") }
        guard Float(far) > Float(near) else { throw OptionError("--far", "\(far)", "must be greater than --near (\(near))") }
    }

    func run() throws {
        let e = eyeOption.eye?.value ?? Vec3(0, 0, 0.6)
        let screen = screenOptions.flag() ?? ScreenGeometry(width: 0.6, height: 0.34)
        let n = Float(near), f = Float(far)
        let (p, v) = OffAxisFrustum.matrices(eye: e, screen: screen, near: n, far: f)
        func list(_ m: Matrix4) -> String { "[" + m.columnMajor.map { "\($0)" }.joined(separator: ",") + "]" }
        print("{\"projection\":\(list(p)),\"view\":\(list(v))}")
    }
}
