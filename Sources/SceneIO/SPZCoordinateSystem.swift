// SceneIO — SPZCoordinateSystem: the 16 axis conventions an .spz can be stored in, and the
// change of frame between one of them and SplatFrame's splat frame (RDF, the 3DGS PLY's).
//
// Facts (nianticlabs/spz splat-types.h, `CoordinateSystem`): values 1…16 name the directions of
// +x, +y, +z — LDB, RDB, LUB, RUB, LDF, RDF, LUF, RUF (Y-up family), LFD, RFD, LFU, RFU, LBD, RBD,
// LBU, RBU (Z-up family); 0 is "unspecified". Without an SPZ_ADOBE_coordinate_system record an
// .spz is stored in RUB.
import RenderCore

/// An axis convention (`raw` 1…16, named by the directions of +x, +y, +z: "RUB", "RDF", …).
struct SPZCoordinateSystem: Equatable, Sendable {
    /// The value stored in the file (1…16).
    let raw: UInt32

    static let names = ["LDB", "RDB", "LUB", "RUB", "LDF", "RDF", "LUF", "RUF",
                        "LFD", "RFD", "LFU", "RFU", "LBD", "RBD", "LBU", "RBU"]

    /// The convention for a stored value, nil outside 1…16.
    init?(raw: UInt32) {
        guard (1...16).contains(raw) else { return nil }
        self.raw = raw
    }

    /// The default storage frame of .spz (three.js: right, up, back).
    static let rub = SPZCoordinateSystem(raw: 4)!
    /// The 3DGS PLY frame (right, down, forward), SplatFrame's splat frame.
    static let rdf = SPZCoordinateSystem(raw: 6)!

    /// "RUB", "RFU", …
    var name: String { Self.names[Int(raw) - 1] }

    /// True for the Z-up family (values 9…16), a quarter turn about x away from RDF.
    var isZUp: Bool { raw >= 9 }

    /// True for the four Z-up values whose names and nianticlabs/spz's conversion disagree: its
    /// `coordinateConverter` turns LFD, RFD, LBU, RBU as if they were LBU, RBU, LFD, RFD (y and z
    /// both flipped), while LFU, RFU, LBD, RBD come out as named. Checked by building the reference
    /// reader (2025, commit 21715c3) on files from this writer. Readers refuse these rather than
    /// pick one frame silently.
    var isAmbiguous: Bool { [9, 10, 15, 16].contains(raw) }

    /// The change of frame from this convention to RDF.
    var toRDF: SPZAxisMap {
        var axis = [0, 0, 0]
        var sign = Vec3(1, 1, 1)
        for (i, letter) in name.enumerated() {
            switch letter {
            case "R": axis[i] = 0; sign[i] = 1
            case "L": axis[i] = 0; sign[i] = -1
            case "D": axis[i] = 1; sign[i] = 1
            case "U": axis[i] = 1; sign[i] = -1
            case "F": axis[i] = 2; sign[i] = 1
            default: axis[i] = 2; sign[i] = -1          // "B"
            }
        }
        return SPZAxisMap(axis: axis, sign: sign)
    }
}

/// A change of frame between two axis conventions: a signed permutation of the axes,
/// `out[axis[i]] = sign[i] · in[i]`, applied to positions, rotations and SH coefficients.
struct SPZAxisMap: Equatable, Sendable {
    /// Output axis of each input axis (a permutation of 0, 1, 2).
    let axis: [Int]
    /// Sign of each input axis in its output axis (±1).
    let sign: Vec3

    /// True when no axes are swapped (a pure flip: the Y-up family among itself).
    var isDiagonal: Bool { axis == [0, 1, 2] }

    /// The map back (for a pure flip, the map itself).
    var inverse: SPZAxisMap {
        var a = [0, 0, 0]
        var s = Vec3(1, 1, 1)
        for i in 0..<3 { a[axis[i]] = i; s[axis[i]] = sign[i] }
        return SPZAxisMap(axis: a, sign: s)
    }

    /// A position (or any vector) in the output frame.
    @inline(__always) func position(_ p: Vec3) -> Vec3 {
        var out = Vec3.zero
        out[axis[0]] = sign[0] * p.x
        out[axis[1]] = sign[1] * p.y
        out[axis[2]] = sign[2] * p.z
        return out
    }

    /// A splat's rotation in the output frame, such that R'·S²·R'ᵀ = T·(R·S²·Rᵀ)·Tᵀ with the
    /// same scales. A pure flip conjugates (R' = T·R·T keeps the local axes; quaternion
    /// (w, sy·sz·x, sx·sz·y, sx·sy·z) — for RUB ↔ RDF (w, x, −y, −z)); a swap of axes turns the
    /// local frame with it (R' = det(T)·T·R, a proper rotation).
    @inline(__always) func rotation(_ q: Quaternion) -> Quaternion {
        if isDiagonal {
            return Quaternion(w: q.w, x: sign.y * sign.z * q.x, y: sign.x * sign.z * q.y, z: sign.x * sign.y * q.z)
        }
        return turn * q
    }

    /// det(T)·T as a quaternion (only meaningful when axes are swapped).
    var turn: Quaternion {
        var m = [[Float]](repeating: [0, 0, 0], count: 3)     // m[row][column]
        for i in 0..<3 { m[axis[i]][i] = sign[i] }
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        for r in 0..<3 { for c in 0..<3 { m[r][c] *= det } }
        return Self.quaternion(m)
    }

    /// The unit quaternion of a proper rotation matrix (Shepperd's method: divide by the
    /// largest of 4w², 4x², 4y², 4z²).
    static func quaternion(_ m: [[Float]]) -> Quaternion {
        let tr = m[0][0] + m[1][1] + m[2][2]
        if tr > 0 {
            let s = (tr + 1).squareRoot() * 2
            return Quaternion(w: s / 4, x: (m[2][1] - m[1][2]) / s, y: (m[0][2] - m[2][0]) / s, z: (m[1][0] - m[0][1]) / s).normalized
        } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
            let s = (1 + m[0][0] - m[1][1] - m[2][2]).squareRoot() * 2
            return Quaternion(w: (m[2][1] - m[1][2]) / s, x: s / 4, y: (m[0][1] + m[1][0]) / s, z: (m[0][2] + m[2][0]) / s).normalized
        } else if m[1][1] > m[2][2] {
            let s = (1 + m[1][1] - m[0][0] - m[2][2]).squareRoot() * 2
            return Quaternion(w: (m[0][2] - m[2][0]) / s, x: (m[0][1] + m[1][0]) / s, y: s / 4, z: (m[1][2] + m[2][1]) / s).normalized
        } else {
            let s = (1 + m[2][2] - m[0][0] - m[1][1]).squareRoot() * 2
            return Quaternion(w: (m[1][0] - m[0][1]) / s, x: (m[0][2] + m[2][0]) / s, y: (m[1][2] + m[2][1]) / s, z: s / 4).normalized
        }
    }

    /// Oddness in (x, y, z) of each rest basis function (bands 1–4, 3DGS / gsplat order): the
    /// sign a coefficient takes when axes flip is the product of the flipped axes it is odd in.
    /// Band 1: y, z, x. Band 2: xy, yz, 3z²−1, xz, x²−y². Band 3: y(3x²−y²), xyz, y(5z²−1),
    /// z(5z²−3), x(5z²−1), z(x²−y²), x(x²−3y²). Band 4: xy(x²−y²), yz(3x²−y²), xy(7z²−1),
    /// yz(7z²−3), (35z⁴…), xz(7z²−3), (x²−y²)(7z²−1), xz(x²−3y²), and x⁴−6x²y²+y⁴ — which is even
    /// in every axis, but nianticlabs/spz flips it with y (its `flipSh[23] = y`); the table
    /// follows the reference so that files it wrote (and reads) agree with ours.
    static let oddness: [(Bool, Bool, Bool)] = [
        (false, true, false), (false, false, true), (true, false, false),
        (true, true, false), (false, true, true), (false, false, false), (true, false, true), (false, false, false),
        (false, true, false), (true, true, true), (false, true, false), (false, false, true), (true, false, false),
        (false, false, true), (true, false, false),
        (true, true, false), (false, true, true), (true, true, false), (false, true, true), (false, false, false),
        (true, false, true), (false, false, false), (true, false, true), (false, true, false),
    ]

    /// Per rest coefficient (3DGS order), the sign it takes under this map; nil when axes are
    /// swapped (then SH bands mix, which this reader does not do).
    func shSigns(restCount n: Int) -> [Float]? {
        guard isDiagonal else { return nil }
        return (0..<min(n, Self.oddness.count)).map { k in
            let (ox, oy, oz) = Self.oddness[k]
            return (ox ? sign.x : 1) * (oy ? sign.y : 1) * (oz ? sign.z : 1)
        }
    }
}
