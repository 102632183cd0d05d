// SceneLoader+Sequence — an animated capture opened by `SceneLoader`: its first frame decoded
// before any window opens (a broken first frame is a one-line error), and the scene built from it.
import Foundation
import Procedural
import RenderCore
import SplatRender

extension SceneLoader {
    /// Reads `sequence`'s first frame (the fit; whether the file asks for antialiasing; its
    /// warnings) and keeps the rest for the scene to decode as it plays.
    static func sequenceKind(_ sequence: SplatSequence, sidecar: String?,
                             cancelled: @Sendable () -> Bool) throws -> (Kind, antialiased: Bool, warnings: [String]) {
        if cancelled() { throw ViewerError.cancelled(path: sequence.path) }
        let (first, info) = try sequence.decode(0)
        return (.sequence(sequence, first: first, sidecar: sidecar), info.antialiased ?? false, info.warnings)
    }

    /// The animated capture placed like a splat model (fitted by its first frame, −y up unless
    /// the sidecar or `--up` say otherwise); realtime playback decodes ahead within
    /// `options.sequenceBudgetBytes`, frame-exact playback on the frame's thread.
    func sequenceScene(_ sequence: SplatSequence, first: SplatCloud, sidecar: String?, screen: ScreenGeometry,
                       room: Bool? = nil) throws -> SplatSequenceScene {
        let saved = try sidecar.flatMap { try Placement.load(sidecarFor: $0) }
        let placement = options.up.map(Placement.init(up:)) ?? saved ?? Placement(up: .negY)
        let fit = SceneFit(bounds: RobustBounds.of(first.positions), screen: screen, depth: screen.width)
        let roomMesh = (room ?? options.room) ? CubeRoom(screen: screen, showTargets: false).mesh() : nil
        let scene = SplatSequenceScene(name: sequence.name, sequence: sequence, first: SplatRenderer.prepare(first), fit: fit,
                                       placement: placement, room: roomMesh,
                                       budgetBytes: options.videoPlayback == .realtime ? options.sequenceBudgetBytes : nil,
                                       decode: { SplatRenderer.prepare(try sequence.decode($0).cloud) })
        scene.antialias = options.antialias ?? fileAntialiased
        return scene
    }
}
