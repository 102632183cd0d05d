// splatframe — `bench-splats` (hidden): time the CPU splat renderer, per stage, headless.
import ArgumentParser
import Foundation
import ImageIO
import Procedural
import RenderCore
import SceneIO
import SplatRender

/// `splatframe bench-splats [FILE] [--generate N] [--scene room|object] [--camera CAM.json] …`
/// prints one line per stage with medians; for measurements, not for tests.
struct SplatBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench-splats",
        abstract: "Time the CPU splat renderer (median ms per stage).", shouldDisplay: false)

    @Argument(help: "3DGS file to load (omit to generate a scene).")
    var file: String?

    @Option(help: "Generate this many splats instead of loading a file.")
    var generate: Int = 150_000

    @Option(help: "Generated scene: room or object.")
    var scene: String = "room"

    @Option(help: "Camera JSON ({width,height,view[16],projection[16],background}); default: the scene's camera.")
    var camera: String?

    @Option var width: Int = 1280
    @Option var height: Int = 720
    @Option var frames: Int = 20
    @Option var warmup: Int = 3
    @Option var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Flag var antialias = false
    @Flag(help: "Skip the depth output (interactive viewing).") var noDepth = false
    @Option(help: "Write the last frame as PNG.")
    var out: String?

    func run() throws {
        let cloud: SplatCloud
        if let file {
            guard case .splats(let c) = try SceneFile.load(path: file) else {
                throw ValidationError("\(file) holds no splats")
            }
            cloud = c
        } else {
            cloud = scene == "object" ? SplatSceneGenerator.object(count: generate)
                                      : SplatSceneGenerator.room(count: generate)
        }
        var cam = scene == "object" ? SplatSceneGenerator.objectCamera(width: width, height: height)
                                    : SplatSceneGenerator.roomCamera(width: width, height: height)
        if let camera { cam = try Self.loadCamera(camera) }
        let t0 = Date()
        let prepared = SplatRenderer.prepare(cloud)
        let prepMs = Date().timeIntervalSince(t0) * 1000
        let renderer = SplatRenderer(threads: threads)
        renderer.antialias = antialias
        renderer.writesDepth = !noDepth
        let fb = Framebuffer(width: cam.width, height: cam.height)
        for _ in 0..<warmup { renderer.render(prepared, camera: cam, into: fb) }
        var all: [SplatStageTimes] = []
        var wall: [Double] = []
        let cpu0 = Self.processCPUms()
        for _ in 0..<frames {
            let s = DispatchTime.now().uptimeNanoseconds
            all.append(renderer.render(prepared, camera: cam, into: fb))
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e6)
        }
        let cpuPerFrame = (Self.processCPUms() - cpu0) / Double(max(1, frames))
        func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s.isEmpty ? 0 : s[s.count / 2] }
        func f(_ x: Double) -> String { String(format: "%.2f", x) }
        let m = median(wall)
        print("bench-splats splats=\(cloud.count) sh=\(cloud.shDegree) size=\(cam.width)x\(cam.height) threads=\(threads)\(noDepth ? " no-depth" : "")"
              + " frames=\(frames) median_ms=\(f(m)) fps=\(f(1000 / m)) min_ms=\(f(wall.min() ?? 0))"
              + " p90_ms=\(f(wall.sorted()[min(wall.count - 1, wall.count * 9 / 10)]))"
              + " cpu_ms_per_frame=\(f(cpuPerFrame))")
        print("  stages (median ms): preprocess \(f(median(all.map(\.preprocess)))) sort \(f(median(all.map(\.sort))))"
              + " bin \(f(median(all.map(\.bin)))) blend \(f(median(all.map(\.blend))))"
              + "  visible \(all.last?.visibleSplats ?? 0) pairs \(all.last?.tileSplatPairs ?? 0)  prepare \(f(prepMs)) ms")
        if let out { try ImageFile.savePNG(fb.image(), to: out) }
    }

    /// User + system CPU time of the whole process so far (ms): with other jobs on the
    /// machine, cpu/threads is a steadier estimate of the uncontended frame time than wall time.
    static func processCPUms() -> Double {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000
            + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000
    }

    /// Reads the camera JSON shared with glref.
    static func loadCamera(_ path: String) throws -> Camera {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let o = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let w = o["width"] as? Int, let h = o["height"] as? Int,
              let v = o["view"] as? [Double], let p = o["projection"] as? [Double], v.count == 16, p.count == 16
        else { throw ValidationError("\(path): not a camera JSON") }
        var bg = Vec3(0, 0, 0)
        if let b = o["background"] as? [Double], b.count >= 3 { bg = Vec3(Float(b[0]), Float(b[1]), Float(b[2])) }
        return Camera(width: w, height: h, view: Matrix4(columnMajor: v.map(Float.init)),
                      projection: Matrix4(columnMajor: p.map(Float.init)), background: bg)
    }
}
