// HeadPoseFit — the canonical face fitted to the landmarks through the real camera: the head's
// rotation and position by Gauss–Newton on the weighted reprojection error of MediaPipe's
// pose-fitting landmarks, started from MediaPipe's own transform.
import Foundation

/// Fits a rigid canonical face (scaled to the viewer) to image landmarks with a pinhole camera.
///
/// Camera space is OpenGL's (x right, y up, looking down −z), centimetres. A model point X
/// (canonical face, centimetres, scaled by `scale`) lands at P = R·X·scale + t and projects to
/// u = cx + f·Px/(−Pz), v = cy − f·Py/(−Pz) (pixels, y down, pixel centres at integers; cx, cy
/// the image centre). MediaPipe's own transform comes from a virtual camera of 63° vertical field
/// of view, whatever the real one: refitting through the real focal length removes the depth
/// and line-of-sight errors that mismatch causes.
public struct HeadPoseFit: Sendable {
    public var rotation: [[Double]]
    public var translation: SIMD3<Double>
    /// Root-mean-square reprojection error of the fitted points (pixels).
    public var rmsPixels: Double

    /// One model point (canonical face, centimetres, before `scale`), where it was seen (pixels)
    /// and its weight.
    public struct Correspondence: Sendable {
        public var model: SIMD3<Double>, image: SIMD2<Double>, weight: Double
        public init(model: SIMD3<Double>, image: SIMD2<Double>, weight: Double) { self.model = model; self.image = image; self.weight = weight }
    }

    /// Refines (`rotation`, `translation`) so that `face`'s basis points land on `landmarks`.
    /// Returns nil when the landmarks or the start are unusable or the fit runs behind the camera.
    public static func fit(face: CanonicalFace, scale: Double, landmarks: [SIMD3<Double>], focal f: Double,
                           width: Double, height: Double, rotation r0: [[Double]], translation t0: SIMD3<Double>,
                           iterations: Int = 8) -> HeadPoseFit? {
        let points = face.basis.filter { $0.index < landmarks.count }.map { b in
            Correspondence(model: SIMD3(Double(face.positions[b.index].x), Double(face.positions[b.index].y), Double(face.positions[b.index].z)),
                           image: SIMD2(landmarks[b.index].x, landmarks[b.index].y), weight: b.weight)
        }
        return fit(points, scale: scale, focal: f, width: width, height: height, rotation: r0, translation: t0, iterations: iterations)
    }

    /// Refines (`rotation`, `translation`) so that the model points land where they were seen.
    public static func fit(_ points: [Correspondence], scale: Double, focal f: Double, width: Double, height: Double,
                           rotation r0: [[Double]], translation t0: SIMD3<Double>, iterations: Int = 8) -> HeadPoseFit? {
        guard points.count >= 4, f > 0, t0.z < 0 else { return nil }
        let cx = (width - 1) / 2, cy = (height - 1) / 2
        var r = r0, t = t0
        var rms = 0.0
        for _ in 0..<iterations {
            var jtj = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
            var jtr = [Double](repeating: 0, count: 6)
            var sum = 0.0, weights = 0.0
            for point in points {
                let x = point.model * scale, weight = point.weight
                let rx = SIMD3(r[0][0] * x.x + r[0][1] * x.y + r[0][2] * x.z,
                               r[1][0] * x.x + r[1][1] * x.y + r[1][2] * x.z,
                               r[2][0] * x.x + r[2][1] * x.y + r[2][2] * x.z)
                let p = rx + t
                let depth = -p.z
                guard depth > 1 else { return nil }
                let u = cx + f * p.x / depth, v = cy - f * p.y / depth
                let ru = point.image.x - u, rv = point.image.y - v
                // d(u, v)/dP
                let du = SIMD3(f / depth, 0, f * p.x / (depth * depth))
                let dv = SIMD3(0, -f / depth, -f * p.y / (depth * depth))
                // dP/dω = −[R·X]×, dP/dt = I
                func dOmega(_ g: SIMD3<Double>) -> SIMD3<Double> {   // gᵀ · (−[a]×) = (a × g)ᵀ with a = rx
                    SIMD3(rx.y * g.z - rx.z * g.y, rx.z * g.x - rx.x * g.z, rx.x * g.y - rx.y * g.x)
                }
                let ju = [dOmega(du), du], jv = [dOmega(dv), dv]
                let rowU = [ju[0].x, ju[0].y, ju[0].z, ju[1].x, ju[1].y, ju[1].z]
                let rowV = [jv[0].x, jv[0].y, jv[0].z, jv[1].x, jv[1].y, jv[1].z]
                for a in 0..<6 {
                    jtr[a] += weight * (rowU[a] * ru + rowV[a] * rv)
                    for b in 0..<6 { jtj[a][b] += weight * (rowU[a] * rowU[b] + rowV[a] * rowV[b]) }
                }
                sum += weight * (ru * ru + rv * rv); weights += weight
            }
            rms = (sum / max(weights, 1e-12)).squareRoot()
            guard let step = solve(jtj, jtr) else { return nil }
            r = multiply(rodrigues(SIMD3(step[0], step[1], step[2])), r)
            t += SIMD3(step[3], step[4], step[5])
            if abs(step[0]) + abs(step[1]) + abs(step[2]) < 1e-7 && abs(step[3]) + abs(step[4]) + abs(step[5]) < 1e-6 { break }
        }
        guard t.z < 0, rms.isFinite else { return nil }
        return HeadPoseFit(rotation: r, translation: t, rmsPixels: rms)
    }

    /// exp([ω]×).
    static func rodrigues(_ w: SIMD3<Double>) -> [[Double]] {
        let angle = (w * w).sum().squareRoot()
        guard angle > 1e-15 else { return [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }
        let u = w / angle, c = cos(angle), s = sin(angle)
        return [[c + (1 - c) * u.x * u.x, (1 - c) * u.x * u.y - s * u.z, (1 - c) * u.x * u.z + s * u.y],
                [(1 - c) * u.y * u.x + s * u.z, c + (1 - c) * u.y * u.y, (1 - c) * u.y * u.z - s * u.x],
                [(1 - c) * u.z * u.x - s * u.y, (1 - c) * u.z * u.y + s * u.x, c + (1 - c) * u.z * u.z]]
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    /// Solves the 6×6 system by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ a0: [[Double]], _ b0: [Double]) -> [Double]? {
        var a = a0, b = b0
        let n = b.count
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot); b.swapAt(col, pivot)
            for row in (col + 1)..<n {
                let k = a[row][col] / a[col][col]
                for c in col..<n { a[row][c] -= k * a[col][c] }
                b[row] -= k * b[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = b[row]
            for c in (row + 1)..<n { s -= a[row][c] * x[c] }
            x[row] = s / a[row][row]
        }
        return x
    }
}
