// PlacedModel — where a model file sits behind the screen, shared by every scene that draws one
// (`ModelScene`, `LODSplatScene`): the automatic fit, the user's placement, camera-JSON mode, the
// room around it, and the frame's prologue.
import RenderCore
import TriangleRaster

/// A model's place in screen space (metres): `fit` centres and scales its robust bounds into the
/// box behind the screen, `placement` orients it on top (orbit, pan, zoom, up axis).
public struct PlacedModel {
    /// The automatic fit (robust bounds into the box).
    public let fit: SceneFit
    /// The user's orientation on top of the fit.
    public var placement: Placement
    /// Drawn in the file's own coordinates (camera JSON mode): no fit, no placement.
    public var ownCoordinates = false
    /// The room drawn around the model, if any (splats are then depth-tested against it).
    public let room: TriangleMesh?
    /// Colour (0…1) of pixels nothing covers.
    public var background = Vec3(0, 0, 0)
    /// Splats: Mip-Splatting-style opacity compensation (off = the 3DGS reference image).
    public var antialias = false

    public init(fit: SceneFit, placement: Placement, room: TriangleMesh?) {
        self.fit = fit; self.placement = placement; self.room = room
    }

    /// Model → screen-space matrix in effect.
    public var matrix: Matrix4 { ownCoordinates ? .identity : fit.modelMatrix(placement) }

    /// Clears `target` (drawing the room, if any) and returns the frame's statistics so far and the
    /// camera in the model's own frame — renderers work there: for a similarity V·M, camera-space
    /// positions, depths and covariances stay in metres.
    func beginFrame(_ target: Framebuffer, camera: Camera, context: RenderContext, splatsCoverTarget: Bool) -> (FrameStats, Camera) {
        let stats = context.beginFrame(target, background: background, room: room, camera: camera, splatsCoverTarget: splatsCoverTarget)
        var cam = camera
        cam.view = camera.view * matrix
        return (stats, cam)
    }
}

/// A scene that draws one placed model.
public protocol PlacedModelScene: Scene {
    var model: PlacedModel { get set }
}

extension PlacedModelScene {
    public var fit: SceneFit { model.fit }
    public var modelPlacement: Placement {
        get { model.placement }
        set { model.placement = newValue }
    }
    public var ownCoordinates: Bool {
        get { model.ownCoordinates }
        set { model.ownCoordinates = newValue }
    }
    public var room: TriangleMesh? { model.room }
    public var background: Vec3 {
        get { model.background }
        set { model.background = newValue }
    }
    public var antialias: Bool {
        get { model.antialias }
        set { model.antialias = newValue }
    }
    /// Always present: a model is placeable (in camera JSON mode it is kept but not applied).
    public var placement: Placement? {
        get { model.placement }
        set { if let newValue { model.placement = newValue } }
    }
    /// Model → screen-space matrix in effect.
    public var modelMatrix: Matrix4 { model.matrix }
}
