// SceneIO load-speed check: writes a synthetic 1M-splat SH-3 3DGS PLY with GaussianPLYWriter,
// then times SceneFile.load on it (median of 5) and prints MB/s. Built in release by Bench/run.sh.
// With file paths as arguments it times loading those files instead.
import Foundation
import RenderCore

@main
struct LoadSpeed {
    static func main() throws {
        let args = CommandLine.arguments
        if args.count > 1, FileManager.default.fileExists(atPath: args[1]) {
            for path in args.dropFirst() { try time(path) }
            return
        }
        let n = args.count > 1 ? Int(args[1]) ?? 1_000_000 : 1_000_000
        let path = args.count > 2 ? args[2] : NSTemporaryDirectory() + "sceneio-bench-\(n).ply"
        var rng: UInt64 = 42
        func rnd() -> Float { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Float(rng >> 40) / Float(1 << 24) }
        var c = SplatCloud(shDegree: 3)
        c.reserveCapacity(n)
        var rest = [Float](repeating: 0, count: 45)
        for _ in 0..<n {
            for k in 0..<45 { rest[k] = rnd() - 0.5 }
            c.append(position: Vec3(rnd(), rnd(), rnd()) * 10, scale: Vec3(rnd(), rnd(), rnd()) * 0.1 + 0.001,
                     rotation: Quaternion(w: rnd() - 0.5, x: rnd() - 0.5, y: rnd() - 0.5, z: rnd() - 0.5).normalized,
                     opacity: rnd(), dc: Vec3(rnd(), rnd(), rnd()), rest: rest)
        }
        try GaussianPLYWriter.write(c, to: path)
        let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var times: [Double] = []
        for _ in 0..<5 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let scene = try SceneFile.load(path: path)
            let t1 = DispatchTime.now().uptimeNanoseconds
            guard case .splats(let s) = scene, s.count == n, s.shDegree == 3 else { print("wrong result"); exit(1) }
            times.append(Double(t1 - t0) / 1e9)
        }
        times.sort()
        let med = times[times.count / 2]
        print(String(format: "%d splats, %.1f MB: load median %.3f s (best %.3f s) = %.0f MB/s (best %.0f MB/s)",
                     n, Double(bytes) / 1e6, med, times[0], Double(bytes) / med / 1e6, Double(bytes) / times[0] / 1e6))
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Times loading an existing file (median of 5).
    static func time(_ path: String) throws {
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<5 {
            let (_, info) = try SceneFile.loadWithInfo(path: path)
            times.append(info.loadSeconds); bytes = info.fileBytes
        }
        times.sort()
        let med = times[2]
        print(String(format: "%@: %.1f MB, median %.4f s = %.0f MB/s", (path as NSString).lastPathComponent, Double(bytes) / 1e6, med, Double(bytes) / med / 1e6))
    }
}
