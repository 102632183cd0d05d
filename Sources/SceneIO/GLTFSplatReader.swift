// SceneIO — GLTFSplatReader: the Gaussian splats of a glTF 2.0 asset (`.glb`, `.gltf`), as
// KHR_gaussian_splatting (Khronos, 2026) stores them: a POINTS primitive whose attributes are
// POSITION, `KHR_gaussian_splatting:ROTATION` (unit quaternion x, y, z, w), `:SCALE` (linear σ),
// `:OPACITY` (linear 0…1, after the sigmoid) and `:SH_DEGREE_l_COEF_n` (RGB per coefficient, the
// 3DGS basis, m from −l to l); earlier drafts' `_ROTATION`, `_SCALE`, `_OPACITY`, `_SH_…` too.
//
// Contract: every splat primitive of the scene is placed by its node's global matrix (centres,
// covariances, SH bands turned) and then turned from glTF's frame (y up) into the splat frame
// every capture is read into (RDF, the 3DGS PLY's: y down) — so a glTF splat is shown upright
// exactly where a glTF mesh of the same file is. `colorSpace` `srgb_rec709_display` is what the
// renderer blends in; `lin_rec709_display` colours are turned to sRGB per splat (a warning says
// blending then differs); unknown kernels, colour spaces and projections are warnings (drawn as
// ellipses, sRGB, perspective). A required extension SplatFrame does not read, or a malformed
// accessor, is one line naming the file and the accessor. Splats compressed as
// KHR_gaussian_splatting_compression_spz_2 are read from their SPZ payload. Primitives without the
// extension are not read here: given a `meshes` reader (SceneFile gives `GLTFMeshPart`), a file that
// also holds them is one `.mixed` scene, meshes and splats both left in glTF's frame; without one,
// or when it fails, the meshes are left out with a warning.
import Foundation
import JSONInput
import RenderCore

enum GLTFSplatReader {
    static let extensionName = "KHR_gaussian_splatting"
    /// Extensions whose data this reader (or, for meshes, the importer) understands; any other
    /// in `extensionsRequired` is refused.
    static let understood: Set<String> = Set([extensionName] + GLTFSplatPrimitive.spzExtensionNames).union(["KHR_mesh_quantization", "KHR_materials_unlit", "KHR_texture_transform",
                                          "KHR_draco_mesh_compression", "KHR_materials_emissive_strength"])
    /// Most splats the scene may instantiate per splat stored (nodes sharing a mesh).
    static let maxInstancing = 16

    /// Whether a parsed document holds a primitive with the extension.
    static func holdsSplats(_ root: JSONNode) -> Bool {
        guard let meshes = try? root.optional("meshes")?.array() else { return false }
        for m in meshes {
            for p in (try? m.optional("primitives")?.array()) ?? [] {
                if (try? p.optional("extensions")?.optional(extensionName)) != nil { return true }
            }
        }
        return false
    }

    /// The splats of the file, or nil when it holds no splat primitive (then it is a plain glTF
    /// for the importer). A file that fails to parse as glTF also answers nil.
    /// `meshes` reads the file's mesh primitives (see `read`).
    static func readIfSplats(_ view: ByteView, directory: String?, meshes: ((GLTFContainer) throws -> ReadResult)? = nil) throws -> ReadResult? {
        let probe: GLTFContainer?
        do { probe = try GLTFContainer.parse(view, directory: directory, wanted: holdsSplats) } catch {
            // Not parseable here: a glTF the importer may still read, or name the fault of.
            guard let root = try? GLTFContainer.document(view), holdsSplats(root) else { return nil }
            throw error
        }
        guard let doc = probe else { return nil }
        return try read(doc, meshes: meshes)
    }

    /// Reads every splat primitive of `doc`'s scene; when the file also holds mesh primitives and
    /// `meshes` reads them (a `.mesh` result), the answer is `.mixed` in glTF's frame.
    static func read(_ doc: GLTFContainer, meshes: ((GLTFContainer) throws -> ReadResult)? = nil) throws -> ReadResult {
        let file = doc.file
        for name in try doc.extensionList("extensionsRequired") where !understood.contains(name) {
            throw SceneIOError.unsupported(file: file, reason: "the file requires the glTF extension \(name), which SplatFrame does not read")
        }
        var warnings: [String] = []
        var primitives: [[Int: GLTFSplatPrimitive]] = []          // per mesh: primitive index → splats
        var meshPrimitives = 0
        var elements: [SceneInfo.Element] = []
        var colorSpaces = Set<String>()
        let json: (meshes: [JSONNode], instances: [GLTFSceneGraph.Instance])
        do {
            let meshes = try doc.json.optional("meshes")?.array() ?? []
            json = (meshes, try GLTFSceneGraph.instances(doc.json, meshCount: meshes.count))
        } catch let e as JSONPathError {
            throw e.sceneIOError(file: file, entry: doc.kind == "glb" ? "JSON chunk" : "JSON")
        }
        for (mi, mesh) in json.meshes.enumerated() {
            var byIndex: [Int: GLTFSplatPrimitive] = [:]
            do {
                for (pi, p) in (try mesh.optional("primitives")?.array() ?? []).enumerated() {
                    guard let ext = try p.optional("extensions")?.optional(extensionName) else { meshPrimitives += 1; continue }
                    let prim = try GLTFSplatPrimitive.read(p, ext: ext, doc: doc, where: "mesh \(mi) primitive \(pi)", warnings: &warnings)
                    colorSpaces.insert(prim.colorSpace)
                    elements.append(prim.element)
                    byIndex[pi] = prim
                }
            } catch let e as JSONPathError {
                throw e.sceneIOError(file: file, entry: doc.kind == "glb" ? "JSON chunk" : "JSON")
            }
            primitives.append(byIndex)
        }
        let stored = primitives.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
        let degree = primitives.flatMap(\.values).map(\.degree).max() ?? 0
        let placed = json.instances.reduce(0) { $0 + primitives[$1.mesh].values.reduce(0) { $0 + $1.count } }
        guard placed <= maxInstancing * max(stored, 1) else {
            throw SceneIOError.tooLarge(file: file, offset: 0, expected: "at most \(maxInstancing) instances of each stored splat",
                                        found: "\(placed) placed from \(stored) stored")
        }
        var meshPart: ReadResult?
        if meshPrimitives > 0, let meshes {
            do { meshPart = try meshes(doc) } catch {
                warnings.append("\(meshPrimitives) mesh primitive\(meshPrimitives == 1 ? "" : "s") not drawn: \(error)")
            }
        }
        var mesh: TriangleMesh?
        if case .mesh(let m)? = meshPart?.scene { mesh = m }
        var cloud = SplatCloud(shDegree: degree)
        cloud.reserveCapacity(placed)
        for inst in json.instances {
            // Alone, the splats turn into the splat frame; with meshes both stay in glTF's.
            let transform = GLTFSplatTransform(mesh == nil ? .gltfToSplatFrame * inst.matrix : inst.matrix)
            for pi in primitives[inst.mesh].keys.sorted() {
                primitives[inst.mesh][pi]!.append(to: &cloud, transform)
            }
        }
        if meshPrimitives > 0 && meshes == nil {
            warnings.append("\(file): \(meshPrimitives) mesh primitive\(meshPrimitives == 1 ? "" : "s") without \(extensionName) not drawn with the splats")
        }
        if stored > 0 && placed == 0 {
            warnings.append("\(file): no node of the scene places the splat meshes; nothing to draw")
        }
        let compressed = primitives.contains { $0.values.contains { $0.element.properties.first?.hasPrefix("SPZ v") == true } }
        let variant = (doc.kind == "glb" ? "binary .glb, " : ".gltf, ") + extensionName + (compressed ? " + SPZ" : "")
            + (colorSpaces.isEmpty ? "" : " (" + colorSpaces.sorted().joined(separator: ", ") + ")")
        let version = (try? doc.json.optional("asset")?.optional("version")?.string()) ?? ""
        if let mesh, let meshPart {
            return ReadResult(scene: .mixed(mesh, cloud), format: .gltf, variant: variant + " with meshes (\(meshPart.variant))", version: version,
                              elements: elements + meshPart.elements,
                              warnings: warnings.map { $0.hasPrefix(file) ? $0 : "\(file): \($0)" } + meshPart.warnings)
        }
        return ReadResult(scene: .splats(cloud), format: .gltf, variant: variant, version: version,
                          elements: elements, warnings: warnings.map { $0.hasPrefix(file) ? $0 : "\(file): \($0)" })
    }
}
