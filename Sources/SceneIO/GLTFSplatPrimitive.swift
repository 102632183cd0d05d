// SceneIO — GLTFSplatPrimitive: one KHR_gaussian_splatting primitive's attributes read and
// checked, in its mesh's own space, ready to be placed by each node that instances it.
//
// Contract: POSITION, ROTATION, SCALE, OPACITY and SH_DEGREE_0_COEF_0 are required (COLOR_0
// stands in for a missing SH degree 0 and opacity, with a warning); every SH degree present is
// complete and so are the ones below it; all accessors of the primitive have one count. Values
// are checked per splat: centres finite (else an error naming the row), opacities clamped to
// 0…1 and negative or non-finite scales set to 0 (counted in one warning each). A primitive whose
// extension holds KHR_gaussian_splatting_compression_spz_2 is read from its SPZ payload instead
// (`GLTFSplatPrimitive+SPZ.swift`).
import Foundation
import JSONInput
import RenderCore

/// One splat primitive's data, channel-innermost SH like `SplatCloud`.
struct GLTFSplatPrimitive {
    var count: Int
    var degree: Int
    var positions: [Vec3] = [], scales: [Vec3] = [], rotations: [Quaternion] = [], opacities: [Float] = [], dc: [Vec3] = []
    /// `count × restCount(degree) × 3`.
    var rest: [Float] = []
    var colorSpace: String
    /// For `info`: the primitive's attributes and their component types.
    var element: SceneInfo.Element
    /// lin_rec709_display: colours are turned to sRGB when placed.
    var linear: Bool

    typealias C = GLTFAccessor.Component
    static let anyComponent: [C] = [.float, .int8, .uint8, .int16, .uint16]

    /// The attribute `name` under the ratified prefix, or an earlier draft's `_` prefix.
    static func attribute(_ attributes: [String: JSONNode], _ name: String) throws -> (String, Int)? {
        for key in ["\(GLTFSplatReader.extensionName):\(name)", "_\(name)"] {
            if let n = attributes[key] { return (key, try n.integer()) }
        }
        return nil
    }

    static func read(_ p: JSONNode, ext: JSONNode, doc: GLTFContainer, where place: String, warnings: inout [String]) throws -> GLTFSplatPrimitive {
        let file = doc.file
        let mode = try p.optional("mode")?.integer() ?? 4
        if mode != 0 { warnings.append("\(place): mode \(mode), not POINTS (0); read as splats") }
        let kernel = try ext.optional("kernel")?.string() ?? "ellipse"
        if kernel != "ellipse" { warnings.append("\(place): kernel \"\(kernel)\" unknown; drawn as ellipses") }
        let colorSpace = try ext.optional("colorSpace")?.string() ?? "srgb_rec709_display"
        if colorSpace != "srgb_rec709_display" && colorSpace != "lin_rec709_display" {
            warnings.append("\(place): colorSpace \"\(colorSpace)\" unknown; drawn as srgb_rec709_display")
        }
        if colorSpace == "lin_rec709_display" {
            warnings.append("\(place): colorSpace lin_rec709_display: colours turned to sRGB per splat; blending happens in sRGB, not linear")
        }
        if let proj = try ext.optional("projection")?.string(), proj != "perspective" {
            warnings.append("\(place): projection \"\(proj)\" unknown; drawn in perspective")
        }
        if let spz = try spzCompression(ext) {
            return try readSPZ(p, spz: spz, doc: doc, where: place, colorSpace: colorSpace, warnings: &warnings)
        }
        let attributes = try p.required("attributes", "an object").members()
        var properties: [String] = []
        var count: Int?
        func accessor(_ key: String, _ index: Int, _ type: String, _ allowed: [C]) throws -> [Float] {
            let a = try GLTFAccessor.resolve(index, in: doc, type: type, allowed: allowed, what: key)
            if let count, a.count != count {
                throw SceneIOError.badEntry(file: file, entry: "accessor \(index) (\(key))", expected: "\(count) elements like POSITION's", found: "\(a.count)")
            }
            count = a.count
            properties.append("\(a.typeName) \(key)")
            return a.floats(doc)
        }
        func missing(_ name: String) -> SceneIOError {
            .badEntry(file: file, entry: "\(place) attributes", expected: "\(GLTFSplatReader.extensionName):\(name)", found: "nothing")
        }
        guard let posIndex = try attributes["POSITION"]?.integer() else { throw missing("POSITION (required)") }
        let pos = try accessor("POSITION", posIndex, "VEC3", anyComponent)
        let n = count!
        guard let (rk, ri) = try attribute(attributes, "ROTATION") else { throw missing("ROTATION") }
        let rot = try accessor(rk, ri, "VEC4", [.float, .int8, .int16])
        guard let (sk, si) = try attribute(attributes, "SCALE") else { throw missing("SCALE") }
        let scl = try accessor(sk, si, "VEC3", [.float, .uint8, .uint16])
        var color: [Float]?
        if let ci = try attributes["COLOR_0"]?.integer() {
            // Only a stand-in: read when SH degree 0 or opacity is missing.
            if try attribute(attributes, "SH_DEGREE_0_COEF_0") == nil || attribute(attributes, "OPACITY") == nil {
                let list = try doc.json.optional("accessors")?.array() ?? []
                let type = ci >= 0 && ci < list.count ? try list[ci].optional("type")?.string() : nil
                let a = try GLTFAccessor.resolve(ci, in: doc, type: type == "VEC3" ? "VEC3" : "VEC4", allowed: [.float, .uint8, .uint16], what: "COLOR_0")
                guard a.count == n else {
                    throw SceneIOError.badEntry(file: file, entry: "accessor \(ci) (COLOR_0)", expected: "\(n) elements like POSITION's", found: "\(a.count)")
                }
                let f = a.floats(doc), k = a.components
                var rgba = [Float](repeating: 1, count: n * 4)
                for i in 0..<n { for c in 0..<k { rgba[i * 4 + c] = f[i * k + c] } }
                color = rgba
                properties.append("\(a.typeName) COLOR_0")
            }
        }
        let opa: [Float]
        if let (ok, oi) = try attribute(attributes, "OPACITY") {
            opa = try accessor(ok, oi, "SCALAR", [.float, .uint8, .uint16])
        } else if let color {
            opa = (0..<n).map { color[$0 * 4 + 3] }
            warnings.append("\(place): no OPACITY; COLOR_0's alpha used")
        } else { throw missing("OPACITY") }
        var sh: [[Float]] = []                   // per coefficient k (0 = DC), n × 3
        var degree = -1
        for l in 0...3 {
            let coefs = try (0..<(2 * l + 1)).map { try attribute(attributes, "SH_DEGREE_\(l)_COEF_\($0)") }
            let present = coefs.filter { $0 != nil }.count
            if present == 0 { break }
            guard present == coefs.count else {
                let gap = coefs.firstIndex { $0 == nil }!
                throw missing("SH_DEGREE_\(l)_COEF_\(gap) (degree \(l) is partly defined)")
            }
            for c in coefs { sh.append(try accessor(c!.0, c!.1, "VEC3", anyComponent)) }
            degree = l
        }
        for l in (degree + 1)...4 where l <= 3 {
            if try attribute(attributes, "SH_DEGREE_\(l)_COEF_0") != nil { throw missing("SH_DEGREE_\(degree + 1)_COEF_0 (degree \(l) needs the lower degrees)") }
        }
        if degree < 0 {
            guard let color else { throw missing("SH_DEGREE_0_COEF_0") }
            // COLOR_0 is linear (glTF); the DC coefficient renders its sRGB encoding.
            sh = [(0..<n).flatMap { i in (0..<3).map { c in (Self.srgb(color[i * 4 + c]) - 0.5) / SplatCloud.shC0 } }]
            warnings.append("\(place): no SH_DEGREE_0_COEF_0; COLOR_0 used")
            degree = 0
        }
        var out = GLTFSplatPrimitive(count: n, degree: degree, colorSpace: colorSpace,
                                     element: SceneInfo.Element(name: place, count: n, properties: properties),
                                     linear: colorSpace == "lin_rec709_display")
        let restCount = SplatCloud.restCount(degree: degree)
        out.rest = [Float](repeating: 0, count: n * restCount * 3)
        var clampedOpacity = 0, badScale = 0
        out.positions.reserveCapacity(n); out.scales.reserveCapacity(n); out.rotations.reserveCapacity(n)
        out.opacities.reserveCapacity(n); out.dc.reserveCapacity(n)
        for i in 0..<n {
            let p = Vec3(pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2])
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.badValue(file: file, element: "\(place) POSITION (accessor \(posIndex))", row: i, expected: "a finite position", found: "\(p.x) \(p.y) \(p.z)")
            }
            var s = Vec3(scl[i * 3], scl[i * 3 + 1], scl[i * 3 + 2])
            if !(s.x >= 0 && s.y >= 0 && s.z >= 0 && s.x.isFinite && s.y.isFinite && s.z.isFinite) {
                badScale += 1
                s = Vec3(s.x.isFinite ? max(0, s.x) : 0, s.y.isFinite ? max(0, s.y) : 0, s.z.isFinite ? max(0, s.z) : 0)
            }
            var o = opa[i]
            if !(o >= 0 && o <= 1) { clampedOpacity += 1; o = o.isNaN ? 0 : min(1, max(0, o)) }
            out.positions.append(p); out.scales.append(s); out.opacities.append(o)
            out.rotations.append(Quaternion(w: rot[i * 4 + 3], x: rot[i * 4], y: rot[i * 4 + 1], z: rot[i * 4 + 2]).normalized)
            out.dc.append(Vec3(sh[0][i * 3], sh[0][i * 3 + 1], sh[0][i * 3 + 2]))
            for k in 0..<restCount {
                for c in 0..<3 { out.rest[(i * restCount + k) * 3 + c] = sh[k + 1][i * 3 + c] }
            }
        }
        if clampedOpacity > 0 { warnings.append("\(place): \(clampedOpacity) opacities outside 0…1 clamped") }
        if badScale > 0 { warnings.append("\(place): \(badScale) negative or non-finite scales set to 0") }
        return out
    }

    /// Places this primitive's splats by `t` and appends them to `cloud` (whose degree is at
    /// least this primitive's; missing bands are zero).
    func append(to cloud: inout SplatCloud, _ t: GLTFSplatTransform) {
        let restCount = SplatCloud.restCount(degree: degree), outRest = cloud.shRestCount
        var turned = rest
        if !t.keepsAxes && restCount > 0 {
            let c = t.r
            SHRotation(columns: (c.0, c.1, c.2)).apply(to: &turned, restCount: restCount, count: count)
        }
        var row = [Float](repeating: 0, count: outRest * 3)
        for i in 0..<count {
            let (s, q) = t.shape(scale: scales[i], rotation: rotations[i])
            var d = dc[i]
            for j in 0..<restCount * 3 { row[j] = turned[i * restCount * 3 + j] }
            if linear {
                // Base colour linear → sRGB; the view-dependent terms scaled by the curve's slope there.
                let base = d * SplatCloud.shC0 + 0.5
                var slope = Vec3.zero
                for c in 0..<3 {
                    let b = min(1, max(1e-4, base[c]))
                    slope[c] = (Self.srgb(b + 1e-3) - Self.srgb(b - 1e-3)) / 2e-3
                    d[c] = (Self.srgb(max(0, base[c])) - 0.5) / SplatCloud.shC0
                }
                for k in 0..<restCount { for c in 0..<3 { row[k * 3 + c] *= slope[c] } }
            }
            cloud.append(position: t.point(positions[i]), scale: s, rotation: q, opacity: opacities[i], dc: d, rest: row)
        }
    }

    /// The sRGB encoding of a linear value (clamped to 0…1).
    static func srgb(_ v: Float) -> Float {
        let x = min(1, max(0, v))
        return x <= 0.0031308 ? 12.92 * x : 1.055 * powf(x, 1 / 2.4) - 0.055
    }
}
