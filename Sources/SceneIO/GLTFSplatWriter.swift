// SceneIO — GLTFSplatWriter: a splat cloud as a glTF 2.0 asset with KHR_gaussian_splatting, in
// the ratified form any glTF viewer that knows the extension reads: one POINTS primitive of float
// accessors (POSITION with min/max, `KHR_gaussian_splatting:ROTATION`, `:SCALE`, `:OPACITY`,
// `:SH_DEGREE_l_COEF_n` up to degree 3) and a COLOR_0 fallback (linear RGB and opacity) for
// viewers that draw it as points; `kernel` "ellipse", `colorSpace` "srgb_rec709_display" (what
// 3DGS captures are trained in). The extension is in `extensionsUsed` only: the file still
// shows as a point cloud where it is not understood (the extension says it need not be required).
//
// Contract: the cloud (SplatFrame's splat frame, RDF) is turned into glTF's frame (y up): centres
// (x, −y, −z), rotations turned by the same half turn about x, SH coefficients signed by their parity in y and z — the
// reader's exact inverse, so PLY → GLB → PLY keeps every value. SH degree 4 (only PLY and .spz
// hold it) is not written: the extension stops at 3.
//
// With `spz` options the splats go as one SPZ version 3 payload (gzip, what nianticlabs/spz 2.x
// writes) in a bufferView, as `KHR_gaussian_splatting_compression_spz_2` (draft) says: packed with
// LUF as glTF's frame (`GLTFSplatPrimitive.writerTurn`), the attributes' accessors count only (no
// bufferView), the extension in `extensionsUsed` and `extensionsRequired` (without it there is no
// data to fall back to).
import Foundation
import RenderCore

enum GLTFSplatWriter {
    /// The `.glb` bytes of `cloud`.
    /// - Parameter spz: compress the splats as an SPZ payload with these options (version 3 only).
    static func encodeGLB(_ cloud: SplatCloud, file: String, spz: SPZWriteOptions? = nil) throws -> [UInt8] {
        let (json, bin) = try document(cloud, file: file, embedded: false, spz: spz)
        return GLTFContainer.glb(json: Array(json.utf8), bin: bin)
    }

    /// The `.gltf` text of `cloud`, its buffer embedded as a base64 `data:` URI.
    static func encodeGLTF(_ cloud: SplatCloud, file: String, spz: SPZWriteOptions? = nil) throws -> [UInt8] {
        Array(try document(cloud, file: file, embedded: true, spz: spz).json.utf8)
    }

    /// The JSON and the binary buffer (a multiple of 4 bytes).
    static func document(_ cloud: SplatCloud, file: String, embedded: Bool, spz: SPZWriteOptions? = nil) throws -> (json: String, bin: [UInt8]) {
        let n = cloud.count
        guard n > 0 else { throw SceneIOError.unsupported(file: file, reason: "no splats to write (a glTF accessor holds at least one)") }
        let payload = try spz.map { try spzPayload(cloud, options: $0, file: file) }
        let degree = min(cloud.shDegree, 3)
        let keep = SplatCloud.restCount(degree: degree), held = cloud.shRestCount
        let map = SPZCoordinateSystem.rub.toRDF.inverse
        let signs = map.shSigns(restCount: keep) ?? []
        var bin: [UInt8] = []
        var views: [String] = [], accessors: [String] = [], attributes: [String] = []
        if let payload {
            bin = payload
            views.append("{\"buffer\":0,\"byteLength\":\(payload.count)}")
            while bin.count % 4 != 0 { bin.append(0) }
        }
        func add(_ name: String, _ type: String, _ components: Int, _ values: [Float], minMax: Bool = false) {
            var a = "{\"componentType\":5126,\"count\":\(n),\"type\":\"\(type)\""
            if payload == nil {                           // SPZ: the accessor only counts (its values are in the payload)
                let offset = bin.count
                values.withUnsafeBytes { bin += $0 }        // little-endian hosts only (x86-64, arm64)
                views.append("{\"buffer\":0,\"byteOffset\":\(offset),\"byteLength\":\(values.count * 4)}")
                a += ",\"bufferView\":\(views.count - 1)"
            }
            if minMax {
                var lo = [Float](repeating: .infinity, count: components), hi = [Float](repeating: -.infinity, count: components)
                for i in 0..<n { for c in 0..<components { lo[c] = min(lo[c], values[i * components + c]); hi[c] = max(hi[c], values[i * components + c]) } }
                a += ",\"min\":[\(lo.map(number).joined(separator: ","))],\"max\":[\(hi.map(number).joined(separator: ","))]"
            }
            accessors.append(a + "}")
            attributes.append("\"\(name)\":\(accessors.count - 1)")
        }
        var pos = [Float](), rot = [Float](), scl = [Float](), opa = [Float](), color = [Float]()
        pos.reserveCapacity(n * 3); rot.reserveCapacity(n * 4); scl.reserveCapacity(n * 3); opa.reserveCapacity(n); color.reserveCapacity(n * 4)
        for i in 0..<n {
            let p = map.position(cloud.positions[i])
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.unsupported(file: file, reason: "splat \(i) has no finite position")
            }
            pos += [p.x, p.y, p.z]
            let q = (halfTurnX * cloud.rotations[i]).normalized    // the reader's inverse: it turns by the same half turn
            rot += [q.x, q.y, q.z, q.w]
            let s = cloud.scales[i]
            scl += [s.x, s.y, s.z].map { $0.isFinite ? max(0, $0) : 0 }
            let o = min(1, max(0, cloud.opacities[i].isNaN ? 0 : cloud.opacities[i]))
            opa.append(o)
            let base = cloud.baseColor(i)
            color += [linear(base.x), linear(base.y), linear(base.z), o]
        }
        let k = GLTFSplatReader.extensionName
        add("POSITION", "VEC3", 3, pos, minMax: true)
        add("COLOR_0", "VEC4", 4, color)
        add("\(k):ROTATION", "VEC4", 4, rot)
        add("\(k):SCALE", "VEC3", 3, scl)
        add("\(k):OPACITY", "SCALAR", 1, opa)
        add("\(k):SH_DEGREE_0_COEF_0", "VEC3", 3, cloud.dc.flatMap { [$0.x, $0.y, $0.z] })
        var coef = 0
        for l in 0..<(degree + 1) where l > 0 {
            for m in 0..<(2 * l + 1) {
                var v = [Float](repeating: 0, count: n * 3)
                for i in 0..<n { for c in 0..<3 { v[i * 3 + c] = cloud.shRest[(i * held + coef) * 3 + c] * signs[coef] } }
                add("\(k):SH_DEGREE_\(l)_COEF_\(m)", "VEC3", 3, v)
                coef += 1
            }
        }
        let s = GLTFSplatPrimitive.spzExtension
        let used = payload == nil ? "[\"\(k)\"]" : "[\"\(k)\",\"\(s)\"],\"extensionsRequired\":[\"\(s)\"]"
        let compression = payload == nil ? "" : ",\"extensions\":{\"\(s)\":{\"bufferView\":0}}"
        let uri = embedded ? ",\"uri\":\"data:application/octet-stream;base64,\(Data(bin).base64EncodedString())\"" : ""
        let json = """
        {"asset":{"version":"2.0","generator":"SplatFrame"},"extensionsUsed":\(used),\
        "scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],\
        "meshes":[{"primitives":[{"mode":0,"attributes":{\(attributes.joined(separator: ","))},\
        "extensions":{"\(k)":{"kernel":"ellipse","colorSpace":"srgb_rec709_display"\(compression)}}}]}],\
        "buffers":[{"byteLength":\(bin.count)\(uri)}],"bufferViews":[\(views.joined(separator: ","))],\
        "accessors":[\(accessors.joined(separator: ","))]}
        """
        return (json, bin)
    }

    /// The SPZ payload of `cloud` (SH cut to degree 3) as the compression extension holds it.
    static func spzPayload(_ cloud: SplatCloud, options: SPZWriteOptions, file: String) throws -> [UInt8] {
        guard options.version == 3 else {
            throw SceneIOError.unsupported(file: file, reason: "SPZ version \(options.version) inside glTF (\(GLTFSplatPrimitive.spzExtension) holds SPZ 2.x payloads: version 3, gzip)")
        }
        var turned = cloud.keepingSH(degree: 3)
        GLTFSplatPrimitive.turn(&turned, by: GLTFSplatPrimitive.writerTurn)
        // Rotations turned as the plain writer turns them (the reader composes the half turn), then into LUF.
        let luf = GLTFSplatPrimitive.writerTurn[1]
        for i in turned.rotations.indices { turned.rotations[i] = luf.rotation((halfTurnX * cloud.rotations[i].normalized).normalized) }
        return try SPZWriter.encode(turned, options: options, file: file)
    }

    /// The half turn about x between the splat frame and glTF's (its own inverse up to sign).
    static let halfTurnX = Quaternion(w: 0, x: 1, y: 0, z: 0)

    /// A float as JSON that reads back to the same float.
    static func number(_ v: Float) -> String { "\(v)" }

    /// sRGB-encoded 0…1 (clamped) to linear, as COLOR_0 holds colours.
    static func linear(_ v: Float) -> Float {
        let x = min(1, max(0, v))
        return x <= 0.04045 ? x / 12.92 : powf((x + 0.055) / 1.055, 2.4)
    }
}
