// SceneFigures — what the HUD shows of the scene, read once per frame on show (with frames drawn
// on their own thread, only while none is being drawn).
import Viewer

/// What the HUD shows of the scene, read while no frame is being drawn.
struct SceneFigures {
    var name: String
    var primitiveCount: Int
    var primitiveKind: PrimitiveKind
    var statusLine: String?

    init(_ scene: Scene) {
        name = scene.name; primitiveCount = scene.primitiveCount; primitiveKind = scene.primitiveKind; statusLine = scene.statusLine
    }
}
