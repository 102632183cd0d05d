// SceneIO — SplatFileWriter: SplatCloud → `.splat` (32-byte records; SH rest is dropped).
import Foundation
import RenderCore

/// Writes `.splat` files: position, linear scale, RGBA8 (base colour and opacity), rotation
/// bytes w, x, y, z as q·128 + 128.
public enum SplatFileWriter {
    /// The file bytes for a cloud.
    public static func encode(_ cloud: SplatCloud) -> [UInt8] {
        let n = cloud.count
        var out = [UInt8](repeating: 0, count: n * 32)
        @inline(__always) func byte(_ f: Float) -> UInt8 {
            let v = (f * 255).rounded()
            return v.isNaN ? 0 : UInt8(min(255, max(0, v)))
        }
        @inline(__always) func rot(_ f: Float) -> UInt8 {
            let v = (f * 128 + 128).rounded()
            return v.isNaN ? 128 : UInt8(min(255, max(0, v)))
        }
        out.withUnsafeMutableBytes { ob in
            for i in 0..<n {
                let o = i * 32
                let p = cloud.positions[i], s = cloud.scales[i]
                for (k, f) in [p.x, p.y, p.z, s.x, s.y, s.z].enumerated() {
                    ob.storeBytes(of: f.bitPattern.littleEndian, toByteOffset: o + 4 * k, as: UInt32.self)
                }
                let c = cloud.baseColor(i)
                ob[o + 24] = byte(c.x); ob[o + 25] = byte(c.y); ob[o + 26] = byte(c.z); ob[o + 27] = byte(cloud.opacities[i])
                let q = cloud.rotations[i].normalized
                ob[o + 28] = rot(q.w); ob[o + 29] = rot(q.x); ob[o + 30] = rot(q.y); ob[o + 31] = rot(q.z)
            }
        }
        return out
    }

    /// Writes a cloud to a file.
    public static func write(_ cloud: SplatCloud, to path: String) throws {
        do { try Data(encode(cloud)).write(to: URL(fileURLWithPath: path)) } catch {
            throw SceneIOError.unwritable(file: path, reason: error.localizedDescription)
        }
    }
}
