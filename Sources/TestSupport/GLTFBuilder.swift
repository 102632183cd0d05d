// TestSupport — GLTFBuilder: glTF 2.0 files assembled piece by piece (accessors of any
// component type and stride, primitives, nodes, extensions), so tests can write exactly the
// bytes a case needs — well-formed from known values, or broken in one chosen place.
import Foundation
import RenderCore

/// A glTF document under construction: one buffer, one bufferView per accessor.
public struct GLTFBuilder {
    /// The document's top-level members other than buffers, bufferViews and accessors.
    public var json: [String: Any] = ["asset": ["version": "2.0", "generator": "SplatFrame tests"]]
    /// Accessor objects (edit them to break one).
    public var accessors: [[String: Any]] = []
    /// BufferView objects (edit them to break one).
    public var bufferViews: [[String: Any]] = []
    /// The buffer's bytes.
    public var bin: [UInt8] = []

    public init() {}

    /// Adds an accessor of floats (`type` "SCALAR", "VEC3", "VEC4"); returns its index.
    public mutating func floats(_ values: [Float], type: String) -> Int {
        var bytes: [UInt8] = []
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        return add(bytes, componentType: 5126, normalized: false, type: type, count: values.count / Self.width(type))
    }

    /// Adds an accessor of integers stored as `componentType` (5120 Int8, 5121 UInt8, 5122 Int16,
    /// 5123 UInt16), optionally normalized and interleaved with `stride` bytes per element.
    public mutating func integers(_ values: [Int], componentType: Int, normalized: Bool, type: String, stride: Int? = nil) -> Int {
        let size = componentType <= 5121 ? 1 : 2
        let k = Self.width(type), count = values.count / k
        let step = stride ?? k * size
        var bytes = [UInt8](repeating: 0xEE, count: step * (count - 1) + k * size)
        for i in 0..<count {
            for j in 0..<k {
                let v = values[i * k + j], o = i * step + j * size
                if size == 1 { bytes[o] = UInt8(truncatingIfNeeded: v) } else {
                    bytes[o] = UInt8(truncatingIfNeeded: v); bytes[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                }
            }
        }
        return add(bytes, componentType: componentType, normalized: normalized, type: type, count: count, stride: stride)
    }

    /// Adds raw bytes as an accessor's own bufferView (4-byte aligned).
    public mutating func add(_ bytes: [UInt8], componentType: Int, normalized: Bool, type: String, count: Int, stride: Int? = nil) -> Int {
        while bin.count % 4 != 0 { bin.append(0) }
        var view: [String: Any] = ["buffer": 0, "byteOffset": bin.count, "byteLength": bytes.count]
        if let stride { view["byteStride"] = stride }
        bin += bytes
        bufferViews.append(view)
        var a: [String: Any] = ["bufferView": bufferViews.count - 1, "componentType": componentType, "count": count, "type": type]
        if normalized { a["normalized"] = true }
        accessors.append(a)
        return accessors.count - 1
    }

    static func width(_ type: String) -> Int { ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4][type] ?? 1 }

    /// Adds a mesh of one KHR_gaussian_splatting POINTS primitive; returns the mesh index.
    public mutating func splatMesh(attributes: [String: Int], kernel: String = "ellipse", colorSpace: String = "srgb_rec709_display") -> Int {
        var meshes = json["meshes"] as? [[String: Any]] ?? []
        meshes.append(["primitives": [["mode": 0, "attributes": attributes,
                                       "extensions": ["KHR_gaussian_splatting": ["kernel": kernel, "colorSpace": colorSpace]]]]])
        json["meshes"] = meshes
        var used = json["extensionsUsed"] as? [String] ?? []
        if !used.contains("KHR_gaussian_splatting") { used.append("KHR_gaussian_splatting") }
        json["extensionsUsed"] = used
        return meshes.count - 1
    }

    /// Adds a splat mesh of round, unrotated splats of one colour (SH degree 0, float accessors)
    /// at `centres`: each `scale` (linear σ) and `opacity`; returns the mesh index.
    public mutating func uniformSplatMesh(centres: [Vec3], scale: Float, opacity: Float, colour: Vec3) -> Int {
        let k = "KHR_gaussian_splatting", n = centres.count
        var at: [String: Int] = [:]
        at["POSITION"] = floats(centres.flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3")
        at["\(k):ROTATION"] = floats((0..<n).flatMap { _ in [Float(0), 0, 0, 1] }, type: "VEC4")
        at["\(k):SCALE"] = floats([Float](repeating: scale, count: 3 * n), type: "VEC3")
        at["\(k):OPACITY"] = floats([Float](repeating: opacity, count: n), type: "SCALAR")
        let dc = SplatCloud.dcFromColor(colour)
        at["\(k):SH_DEGREE_0_COEF_0"] = floats((0..<n).flatMap { _ in [dc.x, dc.y, dc.z] }, type: "VEC3")
        return splatMesh(attributes: at)
    }

    /// Adds raw bytes as a bufferView of their own (4-byte aligned); returns its index.
    public mutating func view(_ bytes: [UInt8]) -> Int {
        while bin.count % 4 != 0 { bin.append(0) }
        bufferViews.append(["buffer": 0, "byteOffset": bin.count, "byteLength": bytes.count])
        bin += bytes
        return bufferViews.count - 1
    }

    /// Adds an accessor of floats without a bufferView (values provided elsewhere); returns its index.
    public mutating func countOnly(_ count: Int, type: String) -> Int {
        accessors.append(["componentType": 5126, "count": count, "type": type])
        return accessors.count - 1
    }

    /// Adds a mesh of one KHR_gaussian_splatting primitive whose splats are the SPZ stream `payload`
    /// (KHR_gaussian_splatting_compression_spz_2): the payload in a bufferView, POSITION, ROTATION,
    /// SCALE, OPACITY and the SH coefficients up to `degree` as count-only accessors of `count`.
    public mutating func spzSplatMesh(payload: [UInt8], count: Int, degree: Int) -> Int {
        let k = "KHR_gaussian_splatting", spz = "KHR_gaussian_splatting_compression_spz_2"
        let bv = view(payload)
        var attributes = ["POSITION": countOnly(count, type: "VEC3"), "COLOR_0": countOnly(count, type: "VEC4"),
                          "\(k):ROTATION": countOnly(count, type: "VEC4"), "\(k):SCALE": countOnly(count, type: "VEC3"),
                          "\(k):OPACITY": countOnly(count, type: "SCALAR")]
        for l in 0...degree { for m in 0..<(2 * l + 1) { attributes["\(k):SH_DEGREE_\(l)_COEF_\(m)"] = countOnly(count, type: "VEC3") } }
        var meshes = json["meshes"] as? [[String: Any]] ?? []
        meshes.append(["primitives": [["mode": 0, "attributes": attributes,
                                       "extensions": [k: ["kernel": "ellipse", "colorSpace": "srgb_rec709_display",
                                                          "extensions": [spz: ["bufferView": bv]]]]]]])
        json["meshes"] = meshes
        json["extensionsUsed"] = [k, spz]
        json["extensionsRequired"] = [spz]
        return meshes.count - 1
    }

    /// Adds a node (`fields`: mesh, translation, rotation, scale, matrix, children); returns its index.
    public mutating func node(_ fields: [String: Any]) -> Int {
        var nodes = json["nodes"] as? [[String: Any]] ?? []
        nodes.append(fields)
        json["nodes"] = nodes
        return nodes.count - 1
    }

    /// The whole document's JSON (buffer 0 given `uri` when not nil).
    public func document(uri: String? = nil) -> Data {
        var root = json
        var buffer: [String: Any] = ["byteLength": bin.count]
        if let uri { buffer["uri"] = uri }
        root["buffers"] = [buffer]
        root["bufferViews"] = bufferViews
        root["accessors"] = accessors
        return (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? Data()
    }

    /// The `.glb` bytes.
    public func glb() -> Data { Data(Self.glb(json: [UInt8](document()), bin: bin)) }

    /// A `.glb` container holding `json` and the binary chunk `bin`, each padded to 4 bytes
    /// (JSON with spaces, the binary with zeros), written here rather than by SceneIO's writer
    /// so that test files do not depend on the code they test.
    public static func glb(json: [UInt8], bin: [UInt8]) -> [UInt8] {
        var j = json, b = bin
        while j.count % 4 != 0 { j.append(0x20) }
        while b.count % 4 != 0 { b.append(0) }
        var out: [UInt8] = []
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
        u32(0x4654_6C67); u32(2); u32(12 + 8 + j.count + 8 + b.count)   // "glTF", version 2, length
        u32(j.count); u32(0x4E4F_534A); out += j                          // "JSON"
        u32(b.count); u32(0x004E_4942); out += b                          // "BIN\0"
        return out
    }

    /// The `.gltf` text with the buffer embedded as a base64 data URI.
    public func gltfEmbedded() -> Data {
        document(uri: "data:application/octet-stream;base64," + Data(bin).base64EncodedString())
    }
}
