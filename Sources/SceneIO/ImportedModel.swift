// SceneIO — ImportedModel: a model as the importer child process hands it back (glTF, FBX,
// COLLADA, 3DS through Assimp), and its byte encoding on the pipe between the two processes.
//
// Contract: `encode` and `decode` are inverses; `decode` trusts nothing (a child that crashed
// half-way, or one whose memory a malformed file corrupted, may send anything): every count is
// checked against the bytes that remain before anything is allocated, every index against the
// arrays it indexes, every float for finiteness, and a failure is one line naming the file.
import Foundation
import RenderCore

/// A triangle mesh with its materials and the pictures they reference, flattened into one frame
/// (node transforms applied), before any texture is decoded.
public struct ImportedModel: Sendable, Equatable {
    /// A material: name, base colour (sRGB-encoded 0…1, alpha linear) and where its base-colour
    /// picture comes from.
    public struct Material: Sendable, Equatable {
        public var name: String
        public var baseColor: Vec4
        public var texture: TextureSource?
        public init(name: String, baseColor: Vec4, texture: TextureSource?) {
            self.name = name; self.baseColor = baseColor; self.texture = texture
        }
    }

    /// Where a material's picture is.
    public enum TextureSource: Sendable, Equatable {
        /// `embedded[i]`.
        case embedded(Int)
        /// A file path as the model names it (relative to the model's folder unless absolute).
        case file(String)
    }

    /// A picture stored inside the model file.
    public enum EmbeddedImage: Sendable, Equatable {
        /// Compressed bytes (PNG, JPEG…) as stored.
        case encoded([UInt8])
        /// Raw RGBA8 texels, `width`×`height`, top row first.
        case rgba(width: Int, height: Int, texels: [UInt8])
    }

    /// What the importer read, e.g. "glTF 2.0 binary" — shown by `info`.
    public var variant: String
    public var positions: [Vec3] = []
    /// Per vertex, or empty.
    public var normals: [Vec3] = []
    /// Per vertex (u right, v up), or empty.
    public var uvs: [Vec2] = []
    /// Per vertex, sRGB-encoded 0…1, or empty.
    public var colors: [Vec4] = []
    /// Three per triangle, counter-clockwise = front.
    public var indices: [UInt32] = []
    public var materials: [Material] = []
    /// Runs of triangles sharing a material (cover every triangle, in order).
    public var groups: [TriangleMesh.Group] = []
    public var embedded: [EmbeddedImage] = []
    /// Things the importer skipped or assumed (points and lines dropped, a second UV set…).
    public var warnings: [String] = []

    public init(variant: String) { self.variant = variant }

    static let magic: [UInt8] = Array("SFIMPORT".utf8)
    static let version: UInt32 = 1

    /// The model's bytes for the pipe.
    public func encode() -> [UInt8] {
        var w = Writer()
        w.bytes(Self.magic); w.u32(Self.version)
        w.string(variant)
        w.u64(positions.count)
        for p in positions { w.f32(p.x); w.f32(p.y); w.f32(p.z) }
        w.u64(normals.count)
        for n in normals { w.f32(n.x); w.f32(n.y); w.f32(n.z) }
        w.u64(uvs.count)
        for t in uvs { w.f32(t.x); w.f32(t.y) }
        w.u64(colors.count)
        for c in colors { w.f32(c.x); w.f32(c.y); w.f32(c.z); w.f32(c.w) }
        w.u64(indices.count)
        for i in indices { w.u32(i) }
        w.u64(materials.count)
        for m in materials {
            w.string(m.name)
            w.f32(m.baseColor.x); w.f32(m.baseColor.y); w.f32(m.baseColor.z); w.f32(m.baseColor.w)
            switch m.texture {
            case nil: w.u32(0)
            case .embedded(let i)?: w.u32(1); w.u64(i)
            case .file(let p)?: w.u32(2); w.string(p)
            }
        }
        w.u64(groups.count)
        for g in groups { w.u64(g.firstTriangle); w.u64(g.triangleCount); w.u64(g.material) }
        w.u64(embedded.count)
        for e in embedded {
            switch e {
            case .encoded(let b): w.u32(0); w.u64(b.count); w.bytes(b)
            case let .rgba(width, height, texels): w.u32(1); w.u64(width); w.u64(height); w.bytes(texels)
            }
        }
        w.u64(warnings.count)
        for s in warnings { w.string(s) }
        return w.out
    }

    /// Reads bytes written by `encode`; `file` names the model in errors.
    public static func decode(_ data: Data, file: String) throws -> ImportedModel {
        try data.withUnsafeBytes { raw in
            var r = Reader(view: ByteView(bytes: raw, file: file))
            try r.expectMagic()
            var m = ImportedModel(variant: try r.string("the importer's format name"))
            let vertices = try r.count(12, "the vertex count")
            m.positions = try (0..<vertices).map { _ in try r.vec3("a vertex position") }
            let normals = try r.count(12, "the normal count")
            guard normals == 0 || normals == vertices else { throw r.fail("one normal per vertex (\(vertices))", "\(normals)") }
            m.normals = try (0..<normals).map { _ in try r.vec3("a normal") }
            let uvs = try r.count(8, "the texture coordinate count")
            guard uvs == 0 || uvs == vertices else { throw r.fail("one texture coordinate per vertex (\(vertices))", "\(uvs)") }
            m.uvs = try (0..<uvs).map { _ in Vec2(try r.f32("a texture coordinate"), try r.f32("a texture coordinate")) }
            let colors = try r.count(16, "the vertex colour count")
            guard colors == 0 || colors == vertices else { throw r.fail("one colour per vertex (\(vertices))", "\(colors)") }
            m.colors = try (0..<colors).map { _ in try r.vec4("a vertex colour") }
            let indices = try r.count(4, "the index count")
            guard indices % 3 == 0 else { throw r.fail("three indices per triangle", "\(indices) indices") }
            m.indices = try (0..<indices).map { _ in
                let i = try r.u32("a vertex index")
                guard Int(i) < vertices else { throw r.fail("a vertex index below \(vertices)", "\(i)") }
                return i
            }
            let materials = try r.count(24, "the material count")
            m.materials = try (0..<materials).map { _ in
                let name = try r.string("a material name")
                let color = try r.vec4("a base colour")
                let texture: TextureSource?
                switch try r.u32("a texture kind") {
                case 0: texture = nil
                case 1: texture = .embedded(try r.int("an embedded picture index"))
                case 2: texture = .file(try r.string("a texture path"))
                case let k: throw r.fail("a texture kind 0, 1 or 2", "\(k)")
                }
                return Material(name: name, baseColor: color, texture: texture)
            }
            let groups = try r.count(24, "the group count")
            var next = 0
            m.groups = try (0..<groups).map { _ in
                let first = try r.int("a group's first triangle"), count = try r.int("a group's triangle count")
                let material = try r.int("a group's material")
                guard first == next, count <= indices / 3 - first else { throw r.fail("groups covering the triangles in order", "\(first)+\(count)") }
                guard material < materials else { throw r.fail("a material index below \(materials)", "\(material)") }
                next = first + count
                return TriangleMesh.Group(firstTriangle: first, triangleCount: count, material: material)
            }
            guard groups == 0 || next == indices / 3 else { throw r.fail("groups covering all \(indices / 3) triangles", "\(next)") }
            let images = try r.count(12, "the picture count")
            m.embedded = try (0..<images).map { _ in
                switch try r.u32("a picture kind") {
                case 0: return .encoded(try r.bytes(try r.int("a picture's byte count"), "a picture's bytes"))
                case 1:
                    let w = try r.int("a picture width"), h = try r.int("a picture height")
                    guard w > 0, h > 0, w <= 1 << 15, h <= 1 << 15 else { throw r.fail("a picture size in 1…32768", "\(w)×\(h)") }
                    return .rgba(width: w, height: h, texels: try r.bytes(w * h * 4, "a picture's texels"))
                case let k: throw r.fail("a picture kind 0 or 1", "\(k)")
                }
            }
            for mat in m.materials {
                if case .embedded(let i)? = mat.texture, i >= images { throw r.fail("an embedded picture index below \(images)", "\(i)") }
            }
            let warnings = try r.count(8, "the warning count")
            m.warnings = try (0..<warnings).map { _ in try r.string("a warning") }
            guard r.offset == raw.count else { throw r.fail("the end of the model", "\(raw.count - r.offset) more bytes") }
            return m
        }
    }

    /// Little-endian output.
    private struct Writer {
        var out: [UInt8] = []
        mutating func bytes(_ b: [UInt8]) { out.append(contentsOf: b) }
        mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        mutating func u64(_ v: Int) { withUnsafeBytes(of: UInt64(v).littleEndian) { out.append(contentsOf: $0) } }
        mutating func f32(_ v: Float) { u32(v.bitPattern) }
        mutating func string(_ s: String) { let b = Array(s.utf8); u64(b.count); bytes(b) }
    }

    /// Checked input: every read names what it expected.
    private struct Reader {
        let view: ByteView
        var offset = 0

        func fail(_ expected: String, _ found: String) -> SceneIOError {
            .badBytes(file: view.file, offset: offset, expected: "importer output: " + expected, found: found)
        }
        mutating func expectMagic() throws {
            try view.need(0, magic.count + 4, "the importer's output header")
            guard (0..<magic.count).allSatisfy({ view.u8($0) == magic[$0] }) else { throw fail("the SFIMPORT header", view.sample(0, 8)) }
            offset = magic.count
            let v = try u32("a version")
            guard v == version else { throw fail("version \(version)", "\(v)") }
        }
        mutating func u32(_ what: String) throws -> UInt32 {
            try view.need(offset, 4, what); defer { offset += 4 }; return view.u32(offset)
        }
        mutating func int(_ what: String) throws -> Int {
            try view.need(offset, 8, what)
            let v = view.u64(offset)
            guard v <= UInt64(Int32.max) else { throw fail(what + " below 2³¹", "\(v)") }
            offset += 8
            return Int(v)
        }
        /// A count whose items take at least `itemBytes` each: checked against what remains.
        mutating func count(_ itemBytes: Int, _ what: String) throws -> Int {
            let n = try int(what)
            guard n <= (view.count - offset) / itemBytes else {
                throw SceneIOError.truncated(file: view.file, offset: view.count, expected: "\(n) items for \(what)")
            }
            return n
        }
        mutating func f32(_ what: String) throws -> Float {
            let f = Float(bitPattern: try u32(what))
            guard f.isFinite else { throw fail(what + " (finite)", "\(f)") }
            return f
        }
        mutating func vec3(_ what: String) throws -> Vec3 { Vec3(try f32(what), try f32(what), try f32(what)) }
        mutating func vec4(_ what: String) throws -> Vec4 { Vec4(try f32(what), try f32(what), try f32(what), try f32(what)) }
        mutating func bytes(_ n: Int, _ what: String) throws -> [UInt8] {
            try view.need(offset, n, what)
            defer { offset += n }
            return Array(UnsafeRawBufferPointer(rebasing: view.bytes[offset..<offset + n]))
        }
        mutating func string(_ what: String) throws -> String {
            let n = try int(what)
            guard n <= 65_536 else { throw fail(what + " of at most 65536 bytes", "\(n) bytes") }
            return String(decoding: try bytes(n, what), as: UTF8.self)
        }
    }
}
