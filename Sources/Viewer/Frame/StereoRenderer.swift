// StereoRenderer — a pose → two eyes → two off-axis frames → one stereo picture.
import Foundation
import HeadTracking
import RenderCore

/// Renders stereo pairs through two `FrameDriver`s (one per eye, same scene and renderers) and
/// composes them into `output`. The HUD and anything else drawn afterwards into `output` sits
/// at zero parallax when drawn the same in both halves (side by side) or once (anaglyph).
public final class StereoRenderer {
    public let mode: StereoMode
    /// Inter-pupillary distance (metres) when the pose has no measured eye span.
    public var ipd: Double
    /// The left and right eye's drivers (their framebuffers hold each eye's last frame).
    public let left: FrameDriver, right: FrameDriver
    /// The composed picture.
    public let output: Framebuffer

    public init(mode: StereoMode, ipd: Double = 0.063, scene: Scene, setup: ViewingSetup, context: RenderContext, width: Int, height: Int) {
        self.mode = mode; self.ipd = ipd
        left = FrameDriver(scene: scene, setup: setup, context: context, width: 1, height: 1)
        right = FrameDriver(scene: scene, setup: setup, context: context, width: 1, height: 1)
        output = Framebuffer(width: max(1, width), height: max(1, height))
    }

    /// The viewing set-up (both eyes share it).
    public var setup: ViewingSetup {
        get { left.setup }
        set { left.setup = newValue; right.setup = newValue }
    }

    /// The two eye points for `pose` (metres, screen space): ± half the measured left→right
    /// eye vector when the source measured both eyes (plausibly: 40–90 mm), else ± IPD/2 along x.
    public func eyes(for pose: HeadPose) -> (left: Vec3d, right: Vec3d) {
        var half = Vec3d(ipd / 2, 0, 0)
        if let span = pose.eyeSpan {
            let length = (span * span).sum().squareRoot()
            if length > 0.04 && length < 0.09 && span.x > 0 { half = span / 2 }
        }
        return (pose.position - half, pose.position + half)
    }

    /// Each eye's image size for an output of `width`×`height` pixels.
    public func eyeSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch mode {
        case .anaglyph: return (width, height)
        case .sideBySide(let half):
            let w = max(1, width / 2)
            if half { return (w, height) }
            let v = setup.viewport
            return (w, max(1, min(height, Int((Double(w) * Double(v.height / v.width)).rounded()))))
        }
    }

    /// Renders `pose` for both eyes at an output size of `width`×`height` and composes them.
    /// Returns the stats of the left eye's frame.
    @discardableResult
    public func render(_ pose: HeadPose, width: Int, height: Int) -> FrameStats {
        output.resize(width: max(1, width), height: max(1, height))
        let size = eyeSize(width: width, height: height)
        let (l, r) = eyes(for: pose)
        var lp = pose, rp = pose
        lp.position = l; rp.position = r
        left.resize(width: size.width, height: size.height)
        right.resize(width: size.width, height: size.height)
        let stats = left.render(.pose(lp))
        right.render(.pose(rp))
        compose(left: left.framebuffer, right: right.framebuffer)
        return stats
    }

    /// Asks `source` for frame `index`'s pose, advances the scene to its time (once for both
    /// eyes) and renders it in stereo (a camera view, which has no eye position, is drawn as is
    /// into both eyes).
    @discardableResult
    public func renderFrame(from source: EyeSource, index: Int, width: Int, height: Int) -> FrameRecord {
        let tView = MonotonicClock.now()
        let view = source.view(frame: index)
        let t0 = MonotonicClock.now()
        left.scene.advance(to: source.sceneTime(frame: index, view: view))
        let tAdvanced = MonotonicClock.now()
        var stats: FrameStats
        switch view {
        case .pose(let p): stats = render(p, width: width, height: height)
        case .camera(let c):
            stats = left.render(.camera(c)); right.render(.camera(c))
            output.resize(width: c.width, height: c.height)
            output.color.update(from: left.framebuffer.color, count: c.width * c.height)
        }
        let t1 = MonotonicClock.now()
        stats.advanceMs = (tAdvanced - t0) * 1000
        return FrameRecord(view: view, camera: left.camera(for: view), stats: stats, viewTime: tView, renderStart: t0, complete: t1)
    }

    /// Composes two eye frames of `eyeSize` into `output` (as `render` does with the drivers'
    /// own frames; the late latch composes each eye's warped frame).
    public func compose(left leftFrame: Framebuffer, right rightFrame: Framebuffer) {
        let w = output.width, h = output.height
        switch mode {
        case .anaglyph(let dubois):
            let a = leftFrame.color, b = rightFrame.color, o = output.color
            let ml = StereoMode.duboisLeft, mr = StereoMode.duboisRight
            for i in 0..<(w * h) {
                let p = a[i], q = b[i]
                if !dubois {
                    o[i] = (q & 0xFFFF_FF00) | (p & 0xFF)
                    continue
                }
                // Dubois works on linear light; sRGB bytes are decoded and re-encoded.
                let lr = Self.linear(p & 0xFF), lg = Self.linear(p >> 8 & 0xFF), lb = Self.linear(p >> 16 & 0xFF)
                let rr = Self.linear(q & 0xFF), rg = Self.linear(q >> 8 & 0xFF), rb = Self.linear(q >> 16 & 0xFF)
                let R = ml[0] * lr + ml[1] * lg + ml[2] * lb + mr[0] * rr + mr[1] * rg + mr[2] * rb
                let G = ml[3] * lr + ml[4] * lg + ml[5] * lb + mr[3] * rr + mr[4] * rg + mr[5] * rb
                let B = ml[6] * lr + ml[7] * lg + ml[8] * lb + mr[6] * rr + mr[7] * rg + mr[8] * rb
                o[i] = 0xFF00_0000 | Self.encode(B) << 16 | Self.encode(G) << 8 | Self.encode(R)
            }
        case .sideBySide:
            output.clear(color: 0xFF00_0000)
            let ew = leftFrame.width, eh = leftFrame.height
            let y0 = (h - eh) / 2
            for (k, eye) in [leftFrame, rightFrame].enumerated() {
                let src = eye.color
                let x0 = k * (w / 2)
                for y in 0..<min(eh, h) {
                    (output.color + (y0 + y) * w + x0).update(from: src + y * ew, count: min(ew, w - x0))
                }
            }
        }
    }

    /// sRGB byte → linear 0…1 (table).
    @inline(__always) static func linear(_ b: UInt32) -> Float { srgbToLinear[Int(b)] }
    static let srgbToLinear: [Float] = (0..<256).map { i in
        let c = Float(i) / 255
        return c <= 0.04045 ? c / 12.92 : Float(pow(Double((c + 0.055) / 1.055), 2.4))
    }
    /// Linear 0…1 → sRGB byte (clamped), through a 4096-entry table.
    @inline(__always) static func encode(_ v: Float) -> UInt32 {
        let c = v > 0 ? (v < 1 ? v : 1) : 0
        return UInt32(linearToSRGB[Int(c * 4095 + 0.5)])
    }
    static let linearToSRGB: [UInt8] = (0..<4096).map { i in
        let c = Double(i) / 4095
        let s = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
        return UInt8((s * 255).rounded())
    }
}
