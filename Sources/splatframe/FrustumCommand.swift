import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe frustum`: prints the off-axis projection and view matrices for an eye position.
struct FrustumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frustum", abstract: "Print the off-axis projection and view matrices (column-major JSON) for an eye position.")

    @Option(help: "Eye position X,Y,Z in metres (screen space, Z > 0).") var eye: String
    @Option(name: .customLong("screen-mm"), help: "Physical screen size W,H in millimetres.") var screenMM: String = "600,340"
    @Option(help: "Near-plane distance in metres.") var near: Double = Double(OffAxisFrustum.defaultNear)
    @Option(help: "Far-plane distance in metres.") var far: Double = Double(OffAxisFrustum.defaultFar)

    func run() throws {
        let e = try OptionParsing.eye(eye)
        let screen = try OptionParsing.screenMillimetres(screenMM)
        let n = try OptionParsing.positive(near, option: "--near"), f = try OptionParsing.positive(far, option: "--far")
        guard f > n else { throw ViewerError.badOption(name: "--far", value: "\(far)", reason: "must be greater than --near") }
        let (p, v) = OffAxisFrustum.matrices(eye: e, screen: screen, near: n, far: f)
        func list(_ m: Matrix4) -> String { "[" + m.columnMajor.map { "\($0)" }.joined(separator: ",") + "]" }
        print("{\"projection\":\(list(p)),\"view\":\(list(v))}")
    }
}
