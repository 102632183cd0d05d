// SceneIO — GaussianPLYWriter: SplatCloud → 3DGS PLY (binary little-endian, the INRIA layout).
import Foundation
import RenderCore

/// Writes splat clouds as standard 3DGS PLY files: x y z nx ny nz f_dc_0..2 f_rest_* opacity
/// scale_0..2 rot_0..3, all float32; opacity stored as a logit, scales as logs, f_rest channel-major
/// — every coefficient the cloud holds (degree 4: f_rest_0…71).
public enum GaussianPLYWriter {
    /// The file bytes for a cloud.
    /// - Parameter renderMode: written as `comment SplatRenderMode: …` when given (nil: no comment).
    /// - Complexity: O(count · properties), one allocation of the exact file size.
    public static func encode(_ cloud: SplatCloud, renderMode: SplatRenderMode? = nil) -> [UInt8] {
        let head = header(count: cloud.count, restCount: cloud.shRestCount, renderMode: renderMode)
        var out = head
        appendRows(cloud, to: &out)
        return out
    }

    /// The header of a file of `count` splats with `restCount` rest coefficients per channel.
    public static func header(count: Int, restCount rest: Int, renderMode: SplatRenderMode? = nil) -> [UInt8] {
        var header = "ply\nformat binary_little_endian 1.0\ncomment written by SplatFrame SceneIO\n"
        if let renderMode { header += "comment \(renderMode.comment)\n" }
        header += "element vertex \(count)\n"
        for p in propertyNames(restCount: rest) { header += "property float \(p)\n" }
        header += "end_header\n"
        return Array(header.utf8)
    }

    static func propertyNames(restCount rest: Int) -> [String] {
        var names = ["x", "y", "z", "nx", "ny", "nz", "f_dc_0", "f_dc_1", "f_dc_2"]
        for j in 0..<(rest * 3) { names.append("f_rest_\(j)") }
        return names + ["opacity", "scale_0", "scale_1", "scale_2", "rot_0", "rot_1", "rot_2", "rot_3"]
    }

    /// Appends `cloud`'s rows (the body under `header`) to `out`.
    public static func appendRows(_ cloud: SplatCloud, to out: inout [UInt8]) {
        let n = cloud.count, rest = cloud.shRestCount
        let stride = (17 + 3 * rest) * 4
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: n * stride))
        out.withUnsafeMutableBytes { ob in
            for i in 0..<n {
                var o = start + i * stride
                @inline(__always) func put(_ f: Float) { ob.storeBytes(of: f.bitPattern.littleEndian, toByteOffset: o, as: UInt32.self); o += 4 }
                let p = cloud.positions[i]
                put(p.x); put(p.y); put(p.z); put(0); put(0); put(0)
                let d = cloud.dc[i]
                put(d.x); put(d.y); put(d.z)
                for c in 0..<3 { for k in 0..<rest { put(cloud.shRest[(i * rest + k) * 3 + c]) } }
                let a = min(max(cloud.opacities[i], 1e-7), 1 - 1e-7)
                put(logf(a / (1 - a)))
                let s = cloud.scales[i]
                put(logf(s.x)); put(logf(s.y)); put(logf(s.z))
                let q = cloud.rotations[i]
                put(q.w); put(q.x); put(q.y); put(q.z)
            }
        }
    }

    /// Writes a cloud to a file.
    public static func write(_ cloud: SplatCloud, to path: String) throws {
        do { try Data(encode(cloud)).write(to: URL(fileURLWithPath: path)) } catch {
            throw SceneIOError.unwritable(file: path, reason: error.localizedDescription)
        }
    }
}
