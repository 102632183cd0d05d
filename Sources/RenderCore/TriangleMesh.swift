/// An indexed triangle mesh with optional per-vertex attributes, split into groups that
/// share a material. Attributes are parallel arrays: each one is either empty (absent) or
/// has one entry per position.
public struct TriangleMesh: Sendable {
    /// Vertex positions (model space, metres or the file's units).
    public var positions: [Vec3]
    /// Per-vertex normals (need not be unit length), or empty.
    public var normals: [Vec3]
    /// Per-vertex texture coordinates (u right, v up), or empty.
    public var uvs: [Vec2]
    /// Per-vertex RGBA colours, 0…1 sRGB-encoded, or empty.
    public var colors: [Vec4]
    /// Three indices into the vertex arrays per triangle, counter-clockwise = front.
    public var indices: [UInt32]
    /// Materials referenced by `groups`.
    public var materials: [Material]
    /// Runs of triangles sharing a material; empty means all triangles use `materials.first` (or a default).
    public var groups: [Group]

    /// A run of triangles `[firstTriangle, firstTriangle + triangleCount)` using `materials[material]`.
    public struct Group: Equatable, Sendable {
        public var firstTriangle: Int
        public var triangleCount: Int
        public var material: Int
        public init(firstTriangle: Int, triangleCount: Int, material: Int) {
            self.firstTriangle = firstTriangle; self.triangleCount = triangleCount; self.material = material
        }
    }

    /// Surface description used by the shader.
    public struct Material: Sendable {
        /// Base colour multiplied with the texture and vertex colours (0…1).
        public var baseColor: Vec4
        /// Optional colour texture.
        public var texture: Texture?
        /// When false the surface is drawn at full brightness (no Lambert term): pictures on walls.
        public var lit: Bool
        /// Human-readable name (from the file, or "default").
        public var name: String

        public init(name: String = "default", baseColor: Vec4 = Vec4(1, 1, 1, 1), texture: Texture? = nil, lit: Bool = true) {
            self.name = name; self.baseColor = baseColor; self.texture = texture; self.lit = lit
        }
    }

    /// Creates a mesh; attributes may be left empty.
    public init(positions: [Vec3], indices: [UInt32], normals: [Vec3] = [], uvs: [Vec2] = [], colors: [Vec4] = [],
                materials: [Material] = [Material()], groups: [Group] = []) {
        self.positions = positions; self.indices = indices; self.normals = normals
        self.uvs = uvs; self.colors = colors; self.materials = materials; self.groups = groups
    }

    /// Number of vertices.
    public var vertexCount: Int { positions.count }
    /// Number of triangles.
    public var triangleCount: Int { indices.count / 3 }

    /// Axis-aligned bounds of the positions.
    public var bounds: Bounds { Bounds(points: positions) }

    /// The groups, or one group covering every triangle with material 0 when none are set.
    public var effectiveGroups: [Group] {
        groups.isEmpty ? [Group(firstTriangle: 0, triangleCount: triangleCount, material: 0)] : groups
    }

    /// Fills `normals` with smooth, area-weighted vertex normals (when absent).
    public mutating func computeNormalsIfMissing() {
        guard normals.count != positions.count else { return }
        var n = [Vec3](repeating: .zero, count: positions.count)
        var i = 0
        while i + 2 < indices.count {
            let a = Int(indices[i]), b = Int(indices[i + 1]), c = Int(indices[i + 2])
            if a < n.count, b < n.count, c < n.count {
                let fn = (positions[b] - positions[a]).cross(positions[c] - positions[a])
                n[a] += fn; n[b] += fn; n[c] += fn
            }
            i += 3
        }
        normals = n.map { $0.normalized }
    }

    /// Appends another mesh (its materials and groups re-indexed).
    public mutating func append(_ other: TriangleMesh) {
        let base = UInt32(positions.count)
        let triBase = triangleCount
        let matBase = materials.count
        // Attributes stay parallel: pad missing ones with defaults when either side has them.
        func pad<T>(_ a: inout [T], _ b: [T], _ fill: T, _ countA: Int, _ countB: Int) {
            if a.isEmpty && b.isEmpty { return }
            if a.isEmpty { a = [T](repeating: fill, count: countA) }
            a += b.isEmpty ? [T](repeating: fill, count: countB) : b
        }
        let na = positions.count, nb = other.positions.count
        var s = self
        pad(&s.normals, other.normals, Vec3(0, 0, 1), na, nb)
        pad(&s.uvs, other.uvs, Vec2(0, 0), na, nb)
        pad(&s.colors, other.colors, Vec4(1, 1, 1, 1), na, nb)
        let myGroups = effectiveGroups
        s.positions += other.positions
        s.indices += other.indices.map { $0 + base }
        s.materials += other.materials
        s.groups = myGroups + other.effectiveGroups.map {
            Group(firstTriangle: $0.firstTriangle + triBase, triangleCount: $0.triangleCount, material: $0.material + matBase)
        }
        self = s
    }
}
