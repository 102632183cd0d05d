// warpbench — the timewarp's figures, measured in a release build (never in tests):
//   timing   the warp of a 1280×720 frame (median and 90th percentile of many runs)
//   quality  PSNR of warped and stale frames against true renders, 0.5–3 cm eye moves
//   depth    what making splats write their depth costs the renderer (the window skips it)
//   sh       how stale view-dependent (SH) colour is after a small move
// Usage: warpbench [timing|quality|depth|sh]… [--runs N] [--threads N] [--band-rows N] [--save DIR]
//        (default: all four sections)
// (--save writes the quality section's truth, warped and stale pictures as PNG.)
import Foundation
import ImageIO
import Procedural
import RenderCore
import Reprojection
import SplatRender
import Viewer

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
    return v
}
let runs = option("--runs", 200), threads = option("--threads", 2), bandRows = option("--band-rows", Timewarp(threads: 1).bandRows)
let saveDirectory = arguments.firstIndex(of: "--save").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let sections = arguments.filter { ["timing", "quality", "depth", "sh"].contains($0) }
func wants(_ s: String) -> Bool { sections.isEmpty || sections.contains(s) }

let setup = ViewingSetup(screen: ScreenGeometry(width: 0.6, height: 0.34))
let width = 1280, height = 720, eye = Vec3(0, 0, 0.6)
func camera(_ e: Vec3) -> Camera { setup.camera(eye: e, width: width, height: height) }
/// CPU time of the calling thread in milliseconds (not inflated by other processes' load).
func threadCPUms() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) * 1e-6
}
func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
func percentile90(_ v: [Double]) -> Double { v.sorted()[min(v.count - 1, v.count * 9 / 10)] }
func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }

/// A scene rendered at `e` (with depth) into a new framebuffer.
func render(_ scene: Scene, at e: Vec3, context: RenderContext) -> Framebuffer {
    let fb = Framebuffer(width: width, height: height)
    _ = scene.render(camera: camera(e), into: fb, context: context)
    return fb
}

/// PSNR over RGB, in dB.
func psnr(_ a: Framebuffer, _ b: Framebuffer) -> Double {
    var se = 0.0
    for k in 0..<a.pixelCount {
        let x = PackedColor.channels(a.color[k]), y = PackedColor.channels(b.color[k])
        for c in 0..<3 { let d = Double(Int(x[c]) - Int(y[c])); se += d * d }
    }
    let mse = se / Double(a.pixelCount * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

let context = RenderContext(threads: threads)
let scenes: [(String, Scene)] = try ["cube", "generate:60k"].map { ($0, try SceneLoader.load(path: $0).scene(screen: setup.screen.value)) }
print("warpbench: \(width)×\(height), \(threads) threads, screen 0.6×0.34 m, eye (0, 0, 0.6) m")

if wants("timing") {
    let warp = Timewarp(threads: threads), single = Timewarp(threads: 1)
    warp.bandRows = bandRows; single.bandRows = bandRows
    let target = Framebuffer(width: width, height: height)
    for (name, scene) in scenes {
        let source = render(scene, at: eye, context: context)
        for (label, move) in [("1 cm right", Vec3(0.01, 0, 0)), ("1 cm up-left", Vec3(-0.006, 0.008, 0)), ("3 cm diagonal", Vec3(0.02, 0.02, 0.01))] {
            try warp.setSource(source, camera: camera(eye))
            var total: [Double] = [], scatter: [Double] = [], fill: [Double] = [], prepare: [Double] = [], cpu: [Double] = []
            for _ in 0..<runs {
                let t0 = MonotonicClock.now()
                try warp.setSource(source, camera: camera(eye))
                prepare.append((MonotonicClock.now() - t0) * 1000)
                let s = try warp.warp(to: camera(eye + move), into: target)
                total.append(s.totalMs + prepare.last!); scatter.append(s.scatterMs); fill.append(s.fillMs)
                // The same work on one thread, in CPU time: what it costs whatever else runs.
                let c0 = threadCPUms()
                try single.setSource(source, camera: camera(eye))
                try single.warp(to: camera(eye + move), into: target)
                cpu.append(threadCPUms() - c0)
            }
            print("timing \(name), \(label): median \(f(median(total), 3)) ms (p90 \(f(percentile90(total), 3))): setSource \(f(median(prepare), 3)), "
                  + "scatter \(f(median(scatter), 3)), fill \(f(median(fill), 3)); one thread's CPU time \(f(median(cpu), 3)) ms; "
                  + "holes \(warp.lastStats.holePixels) px")
        }
    }
}

if wants("quality") {
    let warp = Timewarp(threads: threads)
    let warped = Framebuffer(width: width, height: height)
    for (name, scene) in scenes {
        let source = render(scene, at: eye, context: context)
        for (direction, unit) in [("right", Vec3(1, 0, 0)), ("up-left", Vec3(-0.6, 0.8, 0)), ("forward", Vec3(0, 0, -1))] {
            var row = "quality \(name), \(direction):"
            for cm in [0.5, 1, 2, 3] as [Float] {
                let b = eye + unit * (cm / 100)
                let truth = render(scene, at: b, context: context)
                let s = try warp.warp(source, from: camera(eye), to: camera(b), into: warped)
                if let dir = saveDirectory {
                    let stem = "\(dir)/\(name.replacingOccurrences(of: ":", with: "-"))-\(direction)-\(cm)cm"
                    try ImageFile.savePNG(truth.image(), to: stem + "-truth.png")
                    try ImageFile.savePNG(warped.image(), to: stem + "-warped.png")
                    var diff = warped.image()
                    for k in 0..<diff.pixels.count {
                        let x = PackedColor.channels(warped.color[k]), y = PackedColor.channels(truth.color[k])
                        func d(_ c: Int) -> UInt8 { UInt8(min(255, abs(Int(x[c]) - Int(y[c])) * 4)) }
                        diff.pixels[k] = PackedColor.pack(r: d(0), g: d(1), b: d(2))
                    }
                    try ImageFile.savePNG(diff, to: stem + "-diff.png")
                }
                row += "  \(cm) cm: warped \(f(psnr(warped, truth))) dB, stale \(f(psnr(source, truth))) dB, holes \(f(Double(s.holePixels) * 100 / Double(width * height), 1)) %"
            }
            print(row)
        }
    }
}

if wants("depth") {
    // The window's path: splats alone, drawn with and without their depth, frames interleaved.
    for path in ["generate:150k", "generate:1M"] {
        let scene = try SceneLoader.load(path: path).scene(screen: setup.screen.value)
        let withDepth = RenderContext(threads: threads, producesDepth: true), without = RenderContext(threads: threads, producesDepth: false)
        let fb = Framebuffer(width: width, height: height)
        var on: [Double] = [], off: [Double] = []
        let frames = max(10, runs / 4)
        for k in 0..<(frames + 4) {
            let e = eye + Vec3(0.02 * sin(Float(k) * 0.3), 0.01 * cos(Float(k) * 0.2), 0)
            let a = scene.render(camera: camera(e), into: fb, context: withDepth).totalMs
            let b = scene.render(camera: camera(e), into: fb, context: without).totalMs
            if k >= 4 { on.append(a); off.append(b) }
        }
        print("depth \(path): with depth \(f(median(on))) ms, without \(f(median(off))) ms, cost \(f(median(on) - median(off))) ms "
              + "(\(f((median(on) / median(off) - 1) * 100, 1)) %), medians of \(frames) frames each")
    }
}

if wants("sh") {
    // The generated object (SH degree 3 with a sheen), 0.3 m across, its centre 0.25 m behind the screen.
    var cloud = SplatSceneGenerator.object(count: 60_000)
    for i in 0..<cloud.count { cloud.positions[i] = cloud.positions[i] * 0.3 + Vec3(0, 0, -0.25); cloud.scales[i] *= 0.3 }
    let renderer = SplatRenderer(threads: threads)
    let prepared = SplatRenderer.prepare(cloud)
    for cm in [0.5, 1, 2, 3] as [Float] {
        let b = eye + Vec3(cm / 100, 0, 0)
        // Every splat's colour frozen at what eye A saw: degree 0 with that colour.
        var frozen = SplatCloud(positions: cloud.positions, scales: cloud.scales, rotations: cloud.rotations,
                                opacities: cloud.opacities, dc: cloud.dc)
        var angles = 0.0, change = 0.0
        for i in 0..<cloud.count {
            let p = SIMD3<Double>(cloud.positions[i]), toA = p - SIMD3<Double>(eye), toB = p - SIMD3<Double>(b)
            let dirA = toA / (toA * toA).sum().squareRoot(), dirB = toB / (toB * toB).sum().squareRoot()
            angles += acos(min(1, (dirA * dirB).sum())) * 180 / .pi
            let basisA = SphericalHarmonics.basis(dirA), basisB = SphericalHarmonics.basis(dirB)
            var colourA = SIMD3<Double>(repeating: 0.5), colourB = SIMD3<Double>(repeating: 0.5)
            for k in 0..<16 {
                let coefficient = k == 0 ? SIMD3<Double>(cloud.dc[i])
                    : SIMD3<Double>(Double(cloud.shRest[(i * 15 + k - 1) * 3]), Double(cloud.shRest[(i * 15 + k - 1) * 3 + 1]),
                                    Double(cloud.shRest[(i * 15 + k - 1) * 3 + 2]))
                colourA += basisA[k] * coefficient; colourB += basisB[k] * coefficient
            }
            let d = (colourA - colourB) * 255
            change += (d * d).sum() / 3
            frozen.dc[i] = Vec3((colourA - 0.5) / Double(SphericalHarmonics.c0))
        }
        let truth = Framebuffer(width: width, height: height), stale = Framebuffer(width: width, height: height)
        renderer.render(prepared, camera: camera(b), into: truth)
        renderer.render(SplatRenderer.prepare(frozen), camera: camera(b), into: stale)
        print("sh \(cm) cm right: mean view angle change \(f(angles / Double(cloud.count), 3))°, splat colour change RMS "
              + "\(f((change / Double(cloud.count)).squareRoot())) levels; image with colours frozen at eye A vs true: \(f(psnr(stale, truth))) dB")
    }
}
