// AssimpImport — the importer child process's work: a glTF, FBX, COLLADA or 3DS file read by
// Debian's Assimp and flattened into an `ImportedModel` (SceneIO's pipe format).
//
// Job: every node's meshes placed by the node's accumulated transform (normals by its inverse
// transpose, winding kept counter-clockwise under mirroring), triangles only (points and lines
// dropped with a warning), first UV set and first colour set, each mesh's base colour and
// base-colour picture (embedded, `*N`, or a file path). glTF colours are linear and are
// converted to the sRGB encoding our renderer multiplies in.
// Contract: runs only in the child (`splatframe import-model`), since Assimp may crash or hang on
// malformed input; the parent (`ModelImporterProcess`) trusts none of its output.
import CAssimp
import Foundation
import RenderCore
import SceneIO

/// Reads a model with Assimp.
public enum AssimpImporter {
    /// A one-line reason the file could not be imported.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Deepest node tree followed (a deeper one is refused rather than risking the stack).
    static let maxDepth = 256

    /// Imports `path` into one mesh in the file's frame.
    public static func importModel(path: String) throws -> ImportedModel {
        let steps = aiProcess_Triangulate.rawValue | aiProcess_JoinIdenticalVertices.rawValue
            | aiProcess_GenSmoothNormals.rawValue | aiProcess_ValidateDataStructure.rawValue | aiProcess_SortByPType.rawValue
        guard let scene = aiImportFile(path, steps) else {
            let reason = String(cString: aiGetErrorString())
            if reason.hasPrefix("No suitable reader found") {
                throw Failure(description: "Assimp has no importer that accepts this file (not glTF 2.0, FBX, COLLADA or 3DS, or broken beyond recognition)")
            }
            throw Failure(description: reason.replacingOccurrences(of: path, with: "the file"))
        }
        defer { aiReleaseImport(scene) }
        var builder = Builder(scene: scene.pointee, isGLTF: isGLTF(path))
        builder.model.variant = variant(path)
        if let root = scene.pointee.mRootNode {
            try builder.visit(root.pointee, parent: Transform.identity, depth: 0)
        }
        builder.finish()
        guard !builder.model.indices.isEmpty else {
            throw Failure(description: "no triangles in this file" + (builder.droppedFaces > 0 ? " (\(builder.droppedFaces) points and lines only)" : ""))
        }
        return builder.model
    }

    /// glTF by the file's first bytes (`glTF`) or its extension.
    static func isGLTF(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "gltf" || ext == "glb" { return true }
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return (try? h.read(upToCount: 4)) == Data("glTF".utf8)
    }

    /// What `info` shows as the format's variant.
    static func variant(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        let kind: String
        switch ext {
        case "glb": kind = "glTF 2.0 binary"
        case "gltf": kind = "glTF 2.0"
        case "fbx": kind = "FBX"
        case "dae": kind = "COLLADA"
        case "3ds": kind = "3DS"
        default: kind = isGLTF(path) ? "glTF 2.0 binary" : ext.uppercased()
        }
        return "\(kind) (Assimp \(aiGetVersionMajor()).\(aiGetVersionMinor()).\(aiGetVersionPatch()))"
    }

    /// A node's accumulated transform: rows of a 3×4 affine matrix.
    struct Transform {
        var m: [Float]   // 12 values, row-major (a1 a2 a3 a4, b1 …, c1 …)
        static let identity = Transform(m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0])

        init(m: [Float]) { self.m = m }
        init(_ a: aiMatrix4x4) {
            m = [a.a1, a.a2, a.a3, a.a4, a.b1, a.b2, a.b3, a.b4, a.c1, a.c2, a.c3, a.c4].map { Float($0) }
        }
        /// self · other.
        func then(_ o: Transform) -> Transform {
            var r = [Float](repeating: 0, count: 12)
            for i in 0..<3 {
                for j in 0..<4 {
                    var s: Float = j == 3 ? m[i * 4 + 3] : 0
                    for k in 0..<3 { s += m[i * 4 + k] * o.m[k * 4 + j] }
                    r[i * 4 + j] = s
                }
            }
            return Transform(m: r)
        }
        func point(_ v: aiVector3D) -> Vec3 {
            let x = Float(v.x), y = Float(v.y), z = Float(v.z)
            return Vec3(m[0] * x + m[1] * y + m[2] * z + m[3], m[4] * x + m[5] * y + m[6] * z + m[7],
                        m[8] * x + m[9] * y + m[10] * z + m[11])
        }
        var determinant: Float {
            m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) + m[2] * (m[4] * m[9] - m[5] * m[8])
        }
        /// The normal transform: the cofactor matrix (det · inverse transpose), sign-corrected.
        func normal(_ v: aiVector3D) -> Vec3 {
            let a = m
            let c00 = a[5] * a[10] - a[6] * a[9], c01 = a[6] * a[8] - a[4] * a[10], c02 = a[4] * a[9] - a[5] * a[8]
            let c10 = a[2] * a[9] - a[1] * a[10], c11 = a[0] * a[10] - a[2] * a[8], c12 = a[1] * a[8] - a[0] * a[9]
            let c20 = a[1] * a[6] - a[2] * a[5], c21 = a[2] * a[4] - a[0] * a[6], c22 = a[0] * a[5] - a[1] * a[4]
            let x = Float(v.x), y = Float(v.y), z = Float(v.z)
            var n = Vec3(c00 * x + c01 * y + c02 * z, c10 * x + c11 * y + c12 * z, c20 * x + c21 * y + c22 * z)
            if determinant < 0 { n = -n }
            let l = (n * n).sum().squareRoot()
            return l > 0 ? n / l : n
        }
    }

    /// Appends each node's meshes to the model.
    struct Builder {
        let scene: aiScene
        let isGLTF: Bool
        var model = ImportedModel(variant: "")
        var droppedFaces = 0
        var extraUVSets = false
        var materialOf: [Int: Int] = [:]
        var anyUV = false, anyColor = false
        /// Per vertex: whether it came with a UV / a colour (filled in `finish`).
        var uvs: [Vec2?] = [], colors: [Vec4?] = []

        init(scene: aiScene, isGLTF: Bool) {
            self.scene = scene; self.isGLTF = isGLTF
        }

        mutating func visit(_ node: aiNode, parent: Transform, depth: Int) throws {
            guard depth < maxDepth else { throw Failure(description: "the node tree is deeper than \(maxDepth) levels") }
            let t = parent.then(Transform(node.mTransformation))
            for k in 0..<Int(node.mNumMeshes) {
                let index = Int(node.mMeshes[k])
                guard index < Int(scene.mNumMeshes), let mesh = scene.mMeshes[index] else { continue }
                try append(mesh.pointee, transform: t)
            }
            for k in 0..<Int(node.mNumChildren) {
                if let child = node.mChildren[k] { try visit(child.pointee, parent: t, depth: depth + 1) }
            }
        }

        mutating func append(_ mesh: aiMesh, transform t: Transform) throws {
            let base = model.positions.count
            let n = Int(mesh.mNumVertices)
            guard base + n < Int(UInt32.max) else { throw Failure(description: "more than 2³² vertices") }
            guard let vertices = mesh.mVertices else { return }
            let mirrored = t.determinant < 0
            let firstTriangle = model.indices.count / 3
            for f in 0..<Int(mesh.mNumFaces) {
                let face = mesh.mFaces[f]
                guard face.mNumIndices == 3, let ix = face.mIndices else { droppedFaces += 1; continue }
                let a = ix[0], b = ix[1], c = ix[2]
                guard Int(a) < n, Int(b) < n, Int(c) < n else { throw Failure(description: "a face refers to a vertex past the mesh's \(n)") }
                let o = UInt32(base)
                model.indices += mirrored ? [o + a, o + c, o + b] : [o + a, o + b, o + c]
            }
            let triangles = model.indices.count / 3 - firstTriangle
            guard triangles > 0 else { return }
            for i in 0..<n {
                let p = t.point(vertices[i])
                guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                    throw Failure(description: "a vertex position or node transform is not a finite number")
                }
                model.positions.append(p)
            }
            if let normals = mesh.mNormals {
                for i in 0..<n {
                    let v = t.normal(normals[i])   // degenerate triangles can leave NaN normals
                    model.normals.append(v.x.isFinite && v.y.isFinite && v.z.isFinite ? v : Vec3(0, 0, 0))
                }
            } else {
                model.normals += [Vec3](repeating: Vec3(0, 0, 0), count: n)
            }
            if let uv = mesh.mTextureCoords.0 {
                anyUV = true
                for i in 0..<n {
                    let u = Float(uv[i].x), v = Float(uv[i].y)
                    uvs.append(u.isFinite && v.isFinite ? Vec2(u, v) : Vec2(0, 0))
                }
            } else {
                uvs += [Vec2?](repeating: nil, count: n)
            }
            if mesh.mTextureCoords.1 != nil { extraUVSets = true }
            if let col = mesh.mColors.0 {
                anyColor = true
                for i in 0..<n {
                    var c = Vec4(Float(col[i].r), Float(col[i].g), Float(col[i].b), Float(col[i].a))
                    if !(c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite) { c = Vec4(1, 1, 1, 1) }
                    colors.append(isGLTF ? AssimpImporter.encodeSRGB(c) : c)
                }
            } else {
                colors += [Vec4?](repeating: nil, count: n)
            }
            let material = materialIndex(Int(mesh.mMaterialIndex))
            if let last = model.groups.last, last.material == material, last.firstTriangle + last.triangleCount == firstTriangle {
                model.groups[model.groups.count - 1].triangleCount += triangles
            } else {
                model.groups.append(TriangleMesh.Group(firstTriangle: firstTriangle, triangleCount: triangles, material: material))
            }
        }

        /// Our index of Assimp's material `index`, converting it on first use.
        mutating func materialIndex(_ index: Int) -> Int {
            if let m = materialOf[index] { return m }
            var material = ImportedModel.Material(name: "material \(index)", baseColor: Vec4(1, 1, 1, 1), texture: nil)
            if index < Int(scene.mNumMaterials), let mat = scene.mMaterials[index] {
                var name = aiString()
                if aiGetMaterialString(mat, "?mat.name", 0, 0, &name) == aiReturn_SUCCESS, let s = string(name), !s.isEmpty { material.name = s }
                var color = aiColor4D()
                if aiGetMaterialColor(mat, "$clr.base", 0, 0, &color) == aiReturn_SUCCESS ||
                    aiGetMaterialColor(mat, "$clr.diffuse", 0, 0, &color) == aiReturn_SUCCESS {
                    let c = Vec4(Float(color.r), Float(color.g), Float(color.b), Float(color.a))
                    if c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite { material.baseColor = isGLTF ? AssimpImporter.encodeSRGB(c) : c }
                }
                material.texture = texture(mat)
            }
            model.materials.append(material)
            materialOf[index] = model.materials.count - 1
            return model.materials.count - 1
        }

        /// The material's base-colour picture, embedded pictures copied into the model once.
        mutating func texture(_ mat: UnsafePointer<aiMaterial>) -> ImportedModel.TextureSource? {
            let type = aiGetMaterialTextureCount(mat, aiTextureType_BASE_COLOR) > 0 ? aiTextureType_BASE_COLOR : aiTextureType_DIFFUSE
            guard aiGetMaterialTextureCount(mat, type) > 0 else { return nil }
            var path = aiString()
            guard aiGetMaterialTexture(mat, type, 0, &path, nil, nil, nil, nil, nil, nil) == aiReturn_SUCCESS,
                  let p = string(path), !p.isEmpty else { return nil }
            if p.hasPrefix("*"), let i = Int(p.dropFirst()), i >= 0, i < Int(scene.mNumTextures) {
                return embeddedTexture(i)
            }
            // Formats that embed pictures under their file names (FBX).
            for i in 0..<Int(scene.mNumTextures) {
                guard let tex = scene.mTextures[i], let name = string(tex.pointee.mFilename), !name.isEmpty else { continue }
                if name == p || (name as NSString).lastPathComponent == (p as NSString).lastPathComponent { return embeddedTexture(i) }
            }
            return .file(p.replacingOccurrences(of: "\\", with: "/"))
        }

        var embeddedIndex: [Int: Int] = [:]

        mutating func embeddedTexture(_ i: Int) -> ImportedModel.TextureSource? {
            if let k = embeddedIndex[i] { return .embedded(k) }
            guard let tex = scene.mTextures[i]?.pointee, let data = tex.pcData else { return nil }
            let w = Int(tex.mWidth), h = Int(tex.mHeight)
            if h == 0 {
                let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: w)
                model.embedded.append(.encoded(Array(bytes)))
            } else {
                guard w > 0, w <= 1 << 15, h <= 1 << 15 else { return nil }
                var texels = [UInt8](repeating: 0, count: w * h * 4)
                for k in 0..<w * h {
                    let t = data[k]   // aiTexel is b, g, r, a
                    texels[4 * k] = t.r; texels[4 * k + 1] = t.g; texels[4 * k + 2] = t.b; texels[4 * k + 3] = t.a
                }
                model.embedded.append(.rgba(width: w, height: h, texels: texels))
            }
            embeddedIndex[i] = model.embedded.count - 1
            return .embedded(model.embedded.count - 1)
        }

        /// Fills attributes some meshes lacked (UV 0, white) and states what was dropped.
        mutating func finish() {
            model.uvs = anyUV ? uvs.map { $0 ?? Vec2(0, 0) } : []
            model.colors = anyColor ? colors.map { $0 ?? Vec4(1, 1, 1, 1) } : []
            if model.normals.allSatisfy({ $0 == Vec3(0, 0, 0) }) { model.normals = [] }
            if droppedFaces > 0 { model.warnings.append("dropped \(droppedFaces) points and lines (triangles only)") }
            if extraUVSets { model.warnings.append("only the first texture coordinate set is used") }
        }

        func string(_ s: aiString) -> String? {
            let n = min(Int(s.length), 1023)
            return withUnsafeBytes(of: s.data) { raw in
                String(decoding: raw.prefix(n), as: UTF8.self)
            }
        }
    }

    /// Linear 0…1 → sRGB encoding (alpha unchanged).
    static func encodeSRGB(_ c: Vec4) -> Vec4 {
        func e(_ x: Float) -> Float {
            let v = min(max(x, 0), 1)
            return v <= 0.0031308 ? 12.92 * v : 1.055 * powf(v, 1 / 2.4) - 0.055
        }
        return Vec4(e(c.x), e(c.y), e(c.z), c.w)
    }
}
