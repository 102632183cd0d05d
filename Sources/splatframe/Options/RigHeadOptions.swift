// RigHeadOptions — the ground-truth head's options (`--face`, `--detector`, `--models`) and what
// they make: the rig's camera, the head textured from the photo, and the tracker's pipeline.
import ArgumentParser
import Foundation
import HeadRig
import WebcamTracking

/// `--face PHOTO`, `--detector`, `--models`: the rendered head `track accuracy` and `track latency` film.
struct RigHeadOptions: ParsableArguments {
    @Option(help: "A photo with one frontal face (PNG or JPEG) to texture the head.") var face: String
    @OptionGroup var detectorOption: DetectorOption
    @OptionGroup var modelsOption: WebcamModelsOption

    /// The rig's camera (640×480, 60°, 2 cm above the screen), the head textured from `--face`
    /// and the tracker's pipeline for that camera (fall-backs reported on stderr).
    func make() throws -> (camera: RigCamera, head: SyntheticHead, pipeline: EyePipeline) {
        let models = WebcamModels.locate(explicit: modelsOption.models)
        let camera = RigCamera()
        let head = try SyntheticHead.make(models: models, photo: face, camera: camera)
        let pipeline = try EyePipeline.best(models: models, model: camera.eyeModel, prefer: detectorOption.detector) {
            FileHandle.standardError.write(Data("splatframe: \($0)\n".utf8))
        }
        return (camera, head, pipeline)
    }
}
