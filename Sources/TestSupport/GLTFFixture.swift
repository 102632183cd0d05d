// TestSupport — GLTFFixture: small glTF 2.0 files written from known geometry, so tests can
// check what the importer read against the truth (positions under node transforms, UVs,
// linear vertex colours, textures embedded or beside the file).
import Foundation
import ImageIO
import RenderCore

/// A glTF 2.0 scene built in code: meshes (one primitive each), a node tree, an optional picture.
public struct GLTFFixture {
    /// One triangle list with optional attributes (glTF conventions: UV origin top-left, linear colours).
    public struct Mesh {
        public var positions: [Vec3]
        public var normals: [Vec3] = []
        public var uvs: [Vec2] = []
        public var colors: [Vec4] = []
        public var indices: [UInt16]
        /// Material index, or nil for glTF's default material.
        public var material: Int?
        public init(positions: [Vec3], indices: [UInt16], material: Int? = nil) {
            self.positions = positions; self.indices = indices; self.material = material
        }
    }

    /// A node: a mesh (or none), a translation, a rotation quaternion (x, y, z, w), a scale, children.
    public struct Node {
        public var mesh: Int?
        public var translation = Vec3(0, 0, 0)
        public var rotation = Vec4(0, 0, 0, 1)
        public var scale = Vec3(1, 1, 1)
        public var children: [Int] = []
        public init(mesh: Int? = nil) { self.mesh = mesh }
    }

    /// A material: base colour factor (linear) and whether it uses the picture.
    public struct Material {
        public var baseColor: Vec4
        public var textured: Bool
        public var name: String
        public init(name: String, baseColor: Vec4 = Vec4(1, 1, 1, 1), textured: Bool = false) {
            self.name = name; self.baseColor = baseColor; self.textured = textured
        }
    }

    public var meshes: [Mesh] = []
    public var nodes: [Node] = []
    /// Root nodes of the scene.
    public var roots: [Int] = []
    public var materials: [Material] = []
    /// The picture textured materials use.
    public var picture: RGBAImage?

    public init() {}

    /// A unit quad (z = 0, facing +z) textured with a 4×2 picture of distinct colours, under a node
    /// turned 90° about y, scaled 2 and moved to (1, 2, 3): its corners land on x = 1 with normal +x.
    public static func texturedQuad() -> GLTFFixture {
        var f = GLTFFixture()
        var quad = Mesh(positions: [Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)], indices: [0, 1, 2, 0, 2, 3], material: 0)
        quad.normals = Array(repeating: Vec3(0, 0, 1), count: 4)
        quad.uvs = [Vec2(0, 1), Vec2(1, 1), Vec2(1, 0), Vec2(0, 0)]   // glTF: v = 0 is the picture's top
        f.meshes = [quad]
        var node = Node(mesh: 0)
        node.translation = Vec3(1, 2, 3)
        node.rotation = Vec4(0, sinf(.pi / 4), 0, cosf(.pi / 4))
        node.scale = Vec3(2, 2, 2)
        f.nodes = [node]; f.roots = [0]
        f.materials = [Material(name: "picture", textured: true)]
        f.picture = quadPicture
        return f
    }

    /// The quad's picture: 4×2 distinct colours.
    public static let quadPicture: RGBAImage = {
        var pixels: [UInt32] = []
        for i in 0..<8 {
            let r = UInt8(30 * i), g = UInt8(255 - 20 * i), b: UInt8 = i & 1 == 0 ? 40 : 200
            pixels.append(PackedColor.pack(r: r, g: g, b: b))
        }
        return RGBAImage(width: 4, height: 2, pixels: pixels)
    }()

    /// Writes `NAME.gltf`, `NAME.bin` and (with a picture) `NAME.png` into `folder`; returns the .gltf path.
    @discardableResult
    public func writeUnpacked(to folder: String, name: String) throws -> String {
        var png: String?
        if let picture {
            png = name + ".png"
            try ImageFile.savePNG(picture, to: (folder as NSString).appendingPathComponent(png!))
        }
        let (json, bin) = document(bufferURI: name + ".bin", imageURI: png, imageBytes: nil)
        try Data(bin).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name + ".bin")))
        let path = (folder as NSString).appendingPathComponent(name + ".gltf")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes one `.glb` (the picture embedded as PNG in the binary chunk); returns its path.
    @discardableResult
    public func writeBinary(to folder: String, name: String) throws -> String {
        let (json, bin) = document(bufferURI: nil, imageURI: nil, imageBytes: try embeddedPicture(folder: folder, name: name))
        let path = (folder as NSString).appendingPathComponent(name + ".glb")
        try Data(GLTFBuilder.glb(json: Array(json.utf8), bin: bin)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The scene as a `GLTFBuilder` (the picture embedded), so a test can add splats beside its meshes.
    public func builder(folder: String) throws -> GLTFBuilder {
        let (json, bin) = document(bufferURI: nil, imageURI: nil, imageBytes: try embeddedPicture(folder: folder, name: "builder"))
        var root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        var b = GLTFBuilder()
        b.accessors = root.removeValue(forKey: "accessors") as? [[String: Any]] ?? []
        b.bufferViews = root.removeValue(forKey: "bufferViews") as? [[String: Any]] ?? []
        root.removeValue(forKey: "buffers")
        b.json = root
        b.bin = bin
        return b
    }

    /// The picture's PNG bytes (written through a scratch file in `folder`), nil without one.
    func embeddedPicture(folder: String, name: String) throws -> [UInt8]? {
        guard let picture else { return nil }
        let tmp = (folder as NSString).appendingPathComponent(".\(name)-embedded.png")
        try ImageFile.savePNG(picture, to: tmp)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: tmp)))
    }

    /// The JSON and the one buffer's bytes.
    func document(bufferURI: String?, imageURI: String?, imageBytes: [UInt8]?) -> (String, [UInt8]) {
        var bin: [UInt8] = []
        var views: [String] = [], accessors: [String] = [], meshJSON: [String] = []
        func align() { while bin.count % 4 != 0 { bin.append(0) } }
        func floats(_ values: [Float], type: String, components: Int, target: Int, minMax: Bool) -> Int {
            align()
            let offset = bin.count
            for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bin += $0 } }
            views.append(#"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(values.count * 4),"target":\#(target)}"#)
            var extra = ""
            if minMax {
                let n = values.count / components
                let mins = (0..<components).map { c in (0..<n).map { values[$0 * components + c] }.min()! }
                let maxs = (0..<components).map { c in (0..<n).map { values[$0 * components + c] }.max()! }
                extra = #","min":[\#(mins.map { "\($0)" }.joined(separator: ","))],"max":[\#(maxs.map { "\($0)" }.joined(separator: ","))]"#
            }
            accessors.append(#"{"bufferView":\#(views.count - 1),"componentType":5126,"count":\#(values.count / components),"type":"\#(type)"\#(extra)}"#)
            return accessors.count - 1
        }
        for m in meshes {
            var attributes = [#""POSITION":\#(floats(m.positions.flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3", components: 3, target: 34962, minMax: true))"#]
            if !m.normals.isEmpty { attributes.append(#""NORMAL":\#(floats(m.normals.flatMap { [$0.x, $0.y, $0.z] }, type: "VEC3", components: 3, target: 34962, minMax: false))"#) }
            if !m.uvs.isEmpty { attributes.append(#""TEXCOORD_0":\#(floats(m.uvs.flatMap { [$0.x, $0.y] }, type: "VEC2", components: 2, target: 34962, minMax: false))"#) }
            if !m.colors.isEmpty { attributes.append(#""COLOR_0":\#(floats(m.colors.flatMap { [$0.x, $0.y, $0.z, $0.w] }, type: "VEC4", components: 4, target: 34962, minMax: false))"#) }
            align()
            let offset = bin.count
            for i in m.indices { withUnsafeBytes(of: i.littleEndian) { bin += $0 } }
            views.append(#"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(m.indices.count * 2),"target":34963}"#)
            accessors.append(#"{"bufferView":\#(views.count - 1),"componentType":5123,"count":\#(m.indices.count),"type":"SCALAR"}"#)
            let material = m.material.map { #","material":\#($0)"# } ?? ""
            meshJSON.append(#"{"primitives":[{"attributes":{\#(attributes.joined(separator: ","))},"indices":\#(accessors.count - 1)\#(material)}]}"#)
        }
        var images = "", textures = "", samplers = ""
        if let imageURI {
            images = #","images":[{"uri":"\#(imageURI)"}]"#
        } else if let imageBytes {
            align()
            let offset = bin.count
            bin += imageBytes
            views.append(#"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(imageBytes.count)}"#)
            images = #","images":[{"bufferView":\#(views.count - 1),"mimeType":"image/png"}]"#
        }
        if !images.isEmpty {
            samplers = #","samplers":[{"magFilter":9729,"minFilter":9729}]"#
            textures = #","textures":[{"source":0,"sampler":0}]"#
        }
        align()
        let materialJSON = materials.map { m in
            let c = m.baseColor
            let tex = m.textured && !images.isEmpty ? #","baseColorTexture":{"index":0}"# : ""
            return #"{"name":"\#(m.name)","pbrMetallicRoughness":{"baseColorFactor":[\#(c.x),\#(c.y),\#(c.z),\#(c.w)],"metallicFactor":0\#(tex)}}"#
        }
        let nodeJSON = nodes.map { n in
            var parts: [String] = []
            if let m = n.mesh { parts.append(#""mesh":\#(m)"#) }
            parts.append(#""translation":[\#(n.translation.x),\#(n.translation.y),\#(n.translation.z)]"#)
            parts.append(#""rotation":[\#(n.rotation.x),\#(n.rotation.y),\#(n.rotation.z),\#(n.rotation.w)]"#)
            parts.append(#""scale":[\#(n.scale.x),\#(n.scale.y),\#(n.scale.z)]"#)
            if !n.children.isEmpty { parts.append(#""children":[\#(n.children.map(String.init).joined(separator: ","))]"#) }
            return "{" + parts.joined(separator: ",") + "}"
        }
        let uri = bufferURI.map { #","uri":"\#($0)""# } ?? ""
        let json = #"{"asset":{"version":"2.0","generator":"SplatFrame tests"},"scene":0,"scenes":[{"nodes":[\#(roots.map(String.init).joined(separator: ","))]}],"#
            + #""nodes":[\#(nodeJSON.joined(separator: ","))],"meshes":[\#(meshJSON.joined(separator: ","))],"#
            + (materialJSON.isEmpty ? "" : #""materials":[\#(materialJSON.joined(separator: ","))],"#) + #""accessors":[\#(accessors.joined(separator: ","))],"#
            + #""bufferViews":[\#(views.joined(separator: ","))],"buffers":[{"byteLength":\#(bin.count)\#(uri)}]\#(images)\#(samplers)\#(textures)}"#
        return (json, bin)
    }
}
