// SceneIOTests — KHR_gaussian_splatting: files written from known values (every attribute, every
// SH coefficient in its order, normalised components, node transforms) read back as the ratified
// text says; SPLATFRAME's writer round trip; the SH band rotation against a slow reference.
import Foundation
import Testing
import JSONInput
import RenderCore
@testable import SceneIO
import TestSupport

@Suite struct GLTFSplatTests {
    static let k = "KHR_gaussian_splatting"

    /// Two splats of SH degree 3 in glTF's frame, every value distinct.
    struct Known {
        var positions: [Vec3] = [Vec3(0.1, 0.2, 0.3), Vec3(-1, 2, -3)]
        var rotations: [Quaternion] = [Quaternion(angle: 0.7, axis: Vec3(1, 2, 3)), Quaternion(angle: -1.9, axis: Vec3(-0.5, 0.1, 0.8))]
        var scales: [Vec3] = [Vec3(0.01, 0.02, 0.03), Vec3(0.5, 0.25, 0.125)]
        var opacities: [Float] = [0.25, 0.875]
        /// coefficient k (0 = DC, then bands 1–3 with m from −l to l), channel c of splat i.
        func sh(_ i: Int, _ k: Int, _ c: Int) -> Float { Float(i + 1) * 0.1 + Float(k) * 0.01 + Float(c) * 0.001 }
    }

    /// A GLB holding `Known` as float accessors, under `node` (nil: a node without transform).
    static func knownFile(_ v: Known = Known(), node: [String: Any] = [:], degree: Int = 3) -> Data {
        var b = GLTFBuilder()
        var attributes: [String: Int] = [:]
        attributes["POSITION"] = b.floats(v.positions.flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3")
        attributes["\(k):ROTATION"] = b.floats(v.rotations.flatMap { [$0.x, $0.y, $0.z, $0.w] }, type: "VEC4")
        attributes["\(k):SCALE"] = b.floats(v.scales.flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3")
        attributes["\(k):OPACITY"] = b.floats(v.opacities, type: "SCALAR")
        var coef = 0
        for l in 0...degree {
            for m in 0..<(2 * l + 1) {
                let c = coef
                attributes["\(k):SH_DEGREE_\(l)_COEF_\(m)"] = b.floats((0..<2).flatMap { i in (0..<3).map { v.sh(i, c, $0) } }, type: "VEC3")
                coef += 1
            }
        }
        let mesh = b.splatMesh(attributes: attributes)
        var n = node
        n["mesh"] = mesh
        _ = b.node(n)
        b.json["scenes"] = [["nodes": [0]]]
        return b.glb()
    }

    static func read(_ data: Data, _ name: String = "known.glb") throws -> SplatCloud {
        guard case .splats(let c) = try SceneFile.load(data: data, name: name) else { throw CocoaError(.fileReadCorruptFile) }
        return c
    }

    /// The sign each rest coefficient takes under glTF → splat frame, (x, y, z) → (x, −y, −z):
    /// the parity of its basis function in y and z, written out from Appendix A's polynomials.
    static let flipSigns: [Float] = [
        -1, -1, 1,                      // y, z, x
        -1, 1, 1, -1, 1,                // xy, yz, 3z²−1, xz, x²−y²
        -1, 1, -1, -1, 1, -1, 1,        // y(3x²−y²), xyz, y(5z²−1), z(5z²−3), x(5z²−1), z(x²−y²), x(x²−3y²)
    ]

    @Test func everyAttributeAndSHOrderFromKnownValues() throws {
        let v = Known()
        let c = try Self.read(Self.knownFile(v))
        #expect(c.count == 2 && c.shDegree == 3)
        for i in 0..<2 {
            let p = v.positions[i]
            #expect(c.positions[i] == Vec3(p.x, -p.y, -p.z))          // placed like a glTF mesh: y up → the splat frame
            #expect(maxDiff(c.scales[i], v.scales[i]) < 1e-7)         // linear, as stored
            #expect(c.opacities[i] == v.opacities[i])                  // linear, as stored
            let q = v.rotations[i]
            #expect(angle(c.rotations[i], Quaternion(angle: .pi, axis: Vec3(1, 0, 0)) * q) < 1e-4)   // turned with the frame
            #expect(maxDiff(c.dc[i], Vec3(v.sh(i, 0, 0), v.sh(i, 0, 1), v.sh(i, 0, 2))) < 1e-7)
            for kk in 0..<15 {
                for ch in 0..<3 {
                    let got = c.shRest[(i * 15 + kk) * 3 + ch], want = Self.flipSigns[kk] * v.sh(i, kk + 1, ch)
                    #expect(abs(got - want) < 1e-5, "splat \(i) coefficient \(kk + 1) channel \(ch): \(got) vs \(want)")
                }
            }
        }
    }

    /// The colour a splat shows along direction d: Σ basis(d)·sh + 0.5 (channel 0).
    static func colour(_ c: SplatCloud, _ i: Int, _ d: SIMD3<Double>, channel ch: Int = 0) -> Double {
        let b = SphericalHarmonics.basis(d)
        var s = b[0] * Double(c.dc[i][ch]) + 0.5
        for kk in 0..<min(15, c.shRestCount) { s += b[kk + 1] * Double(c.shRest[(i * c.shRestCount + kk) * 3 + ch]) }
        return s
    }

    /// Σ = R·S²·Rᵀ of splat i.
    static func covariance(_ c: SplatCloud, _ i: Int) -> [[Double]] {
        let (a, b, d) = c.rotations[i].normalized.rotationColumns
        let cols = [a * c.scales[i].x, b * c.scales[i].y, d * c.scales[i].z]
        return (0..<3).map { r in (0..<3).map { col in cols.reduce(0.0) { $0 + Double($1[r]) * Double($1[col]) } } }
    }

    @Test(arguments: [
        #"{"translation": [1, -2, 0.5], "rotation": [0.2, -0.4, 0.1, 0.8899438], "scale": [1.5, 1.5, 1.5]}"#,
        #"{"translation": [0, 1, 0], "scale": [2, 0.5, 1]}"#,
        #"{"matrix": [0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 3, 4, 5, 1]}"#,
    ])
    func nodeTransformsMoveCentresCovariancesAndSH(nodeJSON: String) throws {
        let node = try #require(try JSONSerialization.jsonObject(with: Data(nodeJSON.utf8)) as? [String: Any])
        let v = Known()
        let plain = try Self.read(Self.knownFile(v))
        let moved = try Self.read(Self.knownFile(v, node: node))
        let g = try GLTFSceneGraph.local(JSONNode.parse(Data(nodeJSON.utf8)))
        let total = GLTFMatrix.gltfToSplatFrame * g * GLTFMatrix.gltfToSplatFrame   // splat frame → splat frame
        func apply(_ p: Vec3) -> SIMD3<Double> {
            var out = SIMD3<Double>.zero
            for r in 0..<3 {
                let x = total.m[0][r] * Double(p.x), y = total.m[1][r] * Double(p.y), z = total.m[2][r] * Double(p.z)
                out[r] = x + y + z + total.m[3][r]
            }
            return out
        }
        let a = (0..<3).map { r in (0..<3).map { c in total.m[c][r] } }     // a[row][col]
        var rng = SeededRandom(seed: 7)
        for i in 0..<2 {
            let want = apply(plain.positions[i]), got = moved.positions[i]
            let gotD = SIMD3(Double(got.x), Double(got.y), Double(got.z))
            #expect(((gotD - want) * (gotD - want)).sum() < 1e-8)
            // Σ' = A Σ Aᵀ.
            let s = Self.covariance(plain, i), s2 = Self.covariance(moved, i)
            for r in 0..<3 {
                for c in 0..<3 {
                    var e = 0.0
                    for x in 0..<3 { for y in 0..<3 { e += a[r][x] * s[x][y] * a[c][y] } }
                    #expect(abs(s2[r][c] - e) < 1e-5 * max(1, abs(e)) + 1e-7, "Σ[\(r)][\(c)] \(s2[r][c]) vs \(e)")
                }
            }
            // The colour seen along d before is seen along R·d after (R: A's columns normalised).
            var len: [Double] = [0, 0, 0]
            for c in 0..<3 { for r in 0..<3 { len[c] += a[r][c] * a[r][c] }; len[c] = len[c].squareRoot() }
            for _ in 0..<20 {
                let d = SIMD3<Double>(Double(rng.normal()), Double(rng.normal()), Double(rng.normal()))
                let u: SIMD3<Double> = d / (d * d).sum().squareRoot()
                var w = SIMD3<Double>.zero
                for r in 0..<3 { for c in 0..<3 { w[r] += a[r][c] / len[c] * u[c] } }
                for ch in 0..<3 {
                    #expect(abs(Self.colour(moved, i, w, channel: ch) - Self.colour(plain, i, u, channel: ch)) < 1e-4)
                }
            }
        }
    }

    @Test func normalisedComponentsMapAsTheSpecificationSays() throws {
        var b = GLTFBuilder()
        var at: [String: Int] = [:]
        // POSITION as normalized shorts (KHR_mesh_quantization), interleaved with a 8-byte stride.
        at["POSITION"] = b.integers([32767, -32768, 0, 16384, 100, -100], componentType: 5122, normalized: true, type: "VEC3", stride: 8)
        at["\(Self.k):ROTATION"] = b.integers([0, 0, 0, 127, 127, 0, 0, 127], componentType: 5120, normalized: true, type: "VEC4")
        at["\(Self.k):SCALE"] = b.integers([1, 2, 3, 255, 0, 65535], componentType: 5123, normalized: true, type: "VEC3")
        at["\(Self.k):OPACITY"] = b.integers([255, 51], componentType: 5121, normalized: true, type: "SCALAR")
        at["\(Self.k):SH_DEGREE_0_COEF_0"] = b.floats([0.5, 0, -0.5, 1, 1, 1], type: "VEC3")
        _ = b.splatMesh(attributes: at)
        _ = b.node(["mesh": 0])
        let c = try Self.read(b.glb())
        #expect(c.count == 2 && c.shDegree == 0)
        #expect(maxDiff(c.positions[0], Vec3(1, 1, 0)) < 1e-6)                         // (1, −1, 0) with y, z negated
        #expect(maxDiff(c.positions[1], Vec3(16384 / 32767, -100 / 32767, 100 / 32767)) < 1e-6)
        #expect(angle(c.rotations[0], Quaternion(angle: .pi, axis: Vec3(1, 0, 0))) < 1e-6)      // identity, turned with the frame
        #expect(angle(c.rotations[1], Quaternion(angle: 1.5 * .pi, axis: Vec3(1, 0, 0))) < 1e-5)
        #expect(maxDiff(c.scales[0], Vec3(1, 2, 3) / 65535) < 1e-9)
        #expect(maxDiff(c.scales[1], Vec3(255 / 65535, 0, 1)) < 1e-7)
        #expect(c.opacities == [1, 0.2])
        // Unsigned bytes without `normalized` are plain numbers.
        var u = GLTFBuilder()
        var au: [String: Int] = [:]
        au["POSITION"] = u.floats([0, 0, 0], type: "VEC3")
        au["\(Self.k):ROTATION"] = u.floats([0, 0, 0, 1], type: "VEC4")
        au["\(Self.k):SCALE"] = u.integers([1, 2, 3], componentType: 5121, normalized: false, type: "VEC3")
        au["\(Self.k):OPACITY"] = u.floats([1], type: "SCALAR")
        au["\(Self.k):SH_DEGREE_0_COEF_0"] = u.floats([0, 0, 0], type: "VEC3")
        _ = u.splatMesh(attributes: au)
        #expect(try Self.read(u.glb()).scales == [Vec3(1, 2, 3)])                       // no nodes: the mesh unmoved
    }

    @Test func embeddedGLTFAndDraftNamesRead() throws {
        var b = GLTFBuilder()
        var at: [String: Int] = [:]
        at["POSITION"] = b.floats([1, 2, 3], type: "VEC3")
        at["_ROTATION"] = b.floats([0, 0, 0, 1], type: "VEC4")
        at["_SCALE"] = b.floats([0.1, 0.2, 0.3], type: "VEC3")
        at["COLOR_0"] = b.floats([1, 0, 0.2140411, 0.5], type: "VEC4")                 // linear; 0.2140411 → sRGB 0.5
        _ = b.splatMesh(attributes: at)
        _ = b.node(["mesh": 0])
        let (scene, info) = try SceneFile.loadWithInfo(data: b.gltfEmbedded(), name: "draft.gltf")
        let c = try #require(splats(scene))
        #expect(c.positions == [Vec3(1, -2, -3)] && c.opacities == [0.5])
        #expect(maxDiff(c.baseColor(0), Vec3(1, 0, 0.5)) < 1e-4)
        #expect(info.warnings.contains { $0.contains("COLOR_0") })
    }

    @Test func writerRoundTripKeepsEveryValue() throws {
        var rng = SeededRandom(seed: 3)
        var cloud = SplatCloud(shDegree: 3)
        for _ in 0..<50 {
            let q = Quaternion(w: rng.normal(), x: rng.normal(), y: rng.normal(), z: rng.normal()).normalized
            cloud.append(position: Vec3(rng.normal(), rng.normal(), rng.normal()),
                         scale: Vec3(rng.uniform(), rng.uniform(), rng.uniform()) * 0.1, rotation: q,
                         opacity: rng.uniform(), dc: Vec3(rng.normal(), rng.normal(), rng.normal()),
                         rest: (0..<45).map { _ in rng.normal() * 0.2 })
        }
        for (bytes, name) in [(try GLTFSplatWriter.encodeGLB(cloud, file: "w.glb"), "w.glb"), (try GLTFSplatWriter.encodeGLTF(cloud, file: "w.gltf"), "w.gltf")] {
            let back = try Self.read(Data(bytes), name)
            #expect(back.count == 50 && back.shDegree == 3)
            #expect(back.positions == cloud.positions && back.opacities == cloud.opacities && back.dc == cloud.dc)
            #expect(zip(back.scales, cloud.scales).allSatisfy { maxDiff($0, $1) == 0 })
            #expect(zip(back.rotations, cloud.rotations).allSatisfy { angle($0, $1) < 1e-3 })
            #expect(zip(back.shRest, cloud.shRest).allSatisfy { abs($0 - $1) < 1e-5 })
        }
        // What other viewers read: the ratified names, float accessors, POSITION's min/max, glTF's frame.
        let (json, _) = try GLTFSplatWriter.document(cloud, file: "w.glb", embedded: false)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(root["extensionsUsed"] as? [String] == [Self.k] && root["extensionsRequired"] == nil)
        let accessors = try #require(root["accessors"] as? [[String: Any]])
        #expect(accessors.allSatisfy { $0["componentType"] as? Int == 5126 })
        let minY = try #require((accessors[0]["min"] as? [Double])?[1])
        #expect(Float(minY) == cloud.positions.map { -$0.y }.min())
        let prim = try #require(((root["meshes"] as? [[String: Any]])?[0]["primitives"] as? [[String: Any]])?[0])
        #expect((prim["attributes"] as? [String: Int])?.count == 6 + 15 && prim["mode"] as? Int == 0)
    }

    // MARK: - SH rotation against a slow reference

    /// Slow reference: the coefficients of d ↦ f(Rᵀd) by projection onto the basis over a dense
    /// Fibonacci sphere (the basis is orthonormal with the 4π normalisation).
    static func projected(_ c: [Double], band l: Int, columns r: [SIMD3<Double>]) -> [Double] {
        let n = 2 * l + 1, first = l * l, samples = 40_000
        var out = [Double](repeating: 0, count: n), norm = [Double](repeating: 0, count: n)
        for i in 0..<samples {
            let z = 1 - (2 * Double(i) + 1) / Double(samples), rr = (1 - z * z).squareRoot(), phi = Double(i) * 2.399963229728653
            let d = SIMD3(rr * cos(phi), rr * sin(phi), z)
            let back = SIMD3((r[0] * d).sum(), (r[1] * d).sum(), (r[2] * d).sum())       // Rᵀd
            let bd = SphericalHarmonics.basis(d), bb = SphericalHarmonics.basis(back)
            let f = (0..<n).reduce(0.0) { $0 + c[$1] * bb[first + $1] }
            for k in 0..<n { out[k] += f * bd[first + k]; norm[k] += bd[first + k] * bd[first + k] }
        }
        return (0..<n).map { out[$0] / norm[$0] }
    }

    @Test func shRotationMatchesProjectionOfTurnedFunctions() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<4 {
            let q = Quaternion(w: rng.normal(), x: rng.normal(), y: rng.normal(), z: rng.normal()).normalized
            let (a, b, c) = q.rotationColumns
            let cols = [a, b, c].map { SIMD3(Double($0.x), Double($0.y), Double($0.z)) }
            let rot = SHRotation(columns: (cols[0], cols[1], cols[2]))
            for l in 1...3 {
                let n = 2 * l + 1
                let coef = (0..<n).map { _ in Double(rng.normal()) }
                let fast = (0..<n).map { r in (0..<n).reduce(0.0) { $0 + rot.bands[l - 1][r * n + $1] * coef[$1] } }
                let slow = Self.projected(coef, band: l, columns: cols)
                for k in 0..<n { #expect(abs(fast[k] - slow[k]) < 2e-3, "band \(l) m \(k - l): \(fast[k]) vs \(slow[k])") }
            }
            // Band 1 in the basis order (−y, z, −x)·c1: the vector v = (−c₃, −c₁, c₂) turns as R·v.
            let c1 = (0..<3).map { _ in Double(rng.normal()) }
            let d1 = (0..<3).map { r in (0..<3).reduce(0.0) { $0 + rot.bands[0][r * 3 + $1] * c1[$1] } }
            let v = SIMD3(-c1[2], -c1[0], c1[1])
            let rv = cols[0] * v.x + cols[1] * v.y + cols[2] * v.z
            #expect(abs(-d1[2] - rv.x) + abs(-d1[0] - rv.y) + abs(d1[1] - rv.z) < 1e-9)
        }
    }

    @Test func eigenDecompositionRebuildsTheCovariance() {
        let s: [[Double]] = [[4, 1, 0.5], [1, 3, -0.25], [0.5, -0.25, 2]]
        let (values, vectors) = GLTFSplatTransform.eigen(s)
        for r in 0..<3 {
            for c in 0..<3 {
                let e = (0..<3).reduce(0.0) { $0 + vectors[$1][r] * values[$1] * vectors[$1][c] }
                #expect(abs(e - s[r][c]) < 1e-12)
            }
        }
    }
}
