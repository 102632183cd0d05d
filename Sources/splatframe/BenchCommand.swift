import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe bench`: headless frame-time measurement of a scene.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure headless frame times of a scene (release builds give meaningful numbers).")

    @Argument(help: "cube, sphere:N, a scene JSON, mesh or splat file.") var scene: String = "cube"
    @Option(help: "Image size WxH.") var size: String = "1280x720"
    @Option(help: "Measured frames.") var frames: Int = 100
    @Option(help: "Frames rendered first and not measured.") var warmup: Int = 10
    @Option(help: "Render threads (default: one per core).") var threads: Int?
    @Option(help: "Fixed eye X,Y,Z in metres.") var eye: String = "0,0,0.6"
    @Option(help: "Camera JSON (the render command's contract) instead of --eye.") var camera: String?
    @OptionGroup var screenOptions: ScreenOptions

    func run() throws {
        guard frames >= 1, frames <= 1_000_000 else { throw ViewerError.badOption(name: "--frames", value: "\(frames)", reason: "must be 1…1000000") }
        guard warmup >= 0, warmup <= 1_000_000 else { throw ViewerError.badOption(name: "--warmup", value: "\(warmup)", reason: "must be 0…1000000") }
        let threads = try WindowOptions(threads: self.threads).validatedThreads()
        let (screen, _) = try screenOptions.screen()
        let cam: Camera
        let loader = try SceneLoader(path: scene)
        let sceneObject: Scene
        if let camera {
            cam = try CameraFile.load(camera)
            sceneObject = try loader.sceneInOwnCoordinates(screen: screen)
        } else {
            let s = try OptionParsing.size(size)
            cam = OffAxisFrustum.camera(eye: try OptionParsing.eye(eye), screen: screen, width: s.width, height: s.height)
            sceneObject = try loader.scene(screen: screen)
        }
        let context = RenderContext(threads: threads)
        let fb = Framebuffer(width: cam.width, height: cam.height)
        var times: [Double] = []
        var stages: [String: [Double]] = [:]
        for i in 0..<(warmup + frames) {
            let t0 = MonotonicClock.now()
            let stats = sceneObject.render(camera: cam, into: fb, context: context)
            let ms = (MonotonicClock.now() - t0) * 1000
            if i >= warmup {
                times.append(ms)
                stages["vertex", default: []].append(stats.raster.vertexMs)
                stages["setup+bin", default: []].append(stats.raster.setupMs)
                stages["raster", default: []].append(stats.raster.rasterMs)
                for s in stats.stages { stages[s.name, default: []].append(s.ms) }
            }
        }
        let st = FrameStatistics(times)
        print("scene \(sceneObject.name): \(sceneObject.primitiveCount) primitives, \(cam.width)x\(cam.height), \(threads) threads, \(frames) frames")
        print(String(format: "frame ms: median %.3f  mean %.3f  p90 %.3f  p99 %.3f  min %.3f  max %.3f  -> %.1f fps",
                     st.median, st.mean, st.p90, st.p99, st.min, st.max, st.fps))
        for (name, v) in stages.sorted(by: { $0.key < $1.key }) where v.contains(where: { $0 > 0 }) {
            print(String(format: "  %-10@ median %.3f ms", name, FrameStatistics(v).median))
        }
    }
}
