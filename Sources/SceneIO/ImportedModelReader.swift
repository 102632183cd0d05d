// SceneIO — ImportedModelReader: glTF 2.0 (.gltf, .glb), FBX, COLLADA (.dae) and 3DS, imported
// by Assimp in a child process (`ModelImporterProcess`), turned into a `TriangleMesh` here with
// its base-colour pictures decoded by our own PNG/JPEG readers.
//
// Contract: a picture that is missing or cannot be decoded leaves its material untextured with
// a warning; everything else that fails is the importer's one-line error.
import Foundation
import RenderCore
#if !SCENEIO_NO_IMAGEIO
import ImageIO
#endif

enum ImportedModelReader {
    /// Imports the file at `path` (bytes in memory are written to a private temporary file first;
    /// their external references then cannot be found).
    static func read(path: String?, view: ByteView, format: SceneFormat, directory: String?) throws -> ReadResult {
        let model: ImportedModel
        if let path {
            model = try ModelImporterProcess.run(path: path)
        } else {
            let fm = FileManager.default
            let dir = fm.temporaryDirectory.appendingPathComponent("splatframe-bytes-\(getpid())-\(UUID().uuidString)").path
            try? fm.createDirectory(atPath: dir, withIntermediateDirectories: false)
            defer { try? fm.removeItem(atPath: dir) }
            let ext = (view.file as NSString).pathExtension
            let file = (dir as NSString).appendingPathComponent("model." + (ext.isEmpty ? format.rawValue : ext))
            guard fm.createFile(atPath: file, contents: Data(view.bytes)) else {
                throw SceneIOError.importFailed(file: view.file, reason: "cannot write a temporary copy for the importer in \(dir)")
            }
            model = try ModelImporterProcess.run(path: file, shownAs: view.file)
        }
        return convert(model, file: view.file, format: format, directory: path.map { ($0 as NSString).deletingLastPathComponent } ?? directory)
    }

    /// The mesh, its decoded pictures and what `info` shows.
    static func convert(_ model: ImportedModel, file: String, format: SceneFormat, directory: String?) -> ReadResult {
        var warnings = model.warnings.map { "\(file): \($0)" }
        var decoded: [Int: Texture] = [:]
        var materials: [TriangleMesh.Material] = []
        var textureNames: [String] = []
        for m in model.materials {
            var material = TriangleMesh.Material(name: m.name, baseColor: m.baseColor)
            switch m.texture {
            case nil: break
            case .embedded(let i)?:
                textureNames.append("embedded #\(i)")
                if decoded[i] == nil, let t = picture(model.embedded[i], name: "\(file): embedded picture #\(i)", warnings: &warnings) { decoded[i] = t }
                material.texture = decoded[i]
            case .file(let p)?:
                textureNames.append(p)
                let resolved = p.hasPrefix("/") || directory == nil ? p : ((directory! as NSString).appendingPathComponent(p))
                material.texture = picture(file: resolved, warnings: &warnings)
            }
            materials.append(material)
        }
        if materials.isEmpty { materials = [TriangleMesh.Material()] }
        var mesh = TriangleMesh(positions: model.positions, indices: model.indices, normals: model.normals, uvs: model.uvs,
                                colors: model.colors, materials: materials, groups: model.groups)
        mesh.computeNormalsIfMissing()
        let elements = [
            SceneInfo.Element(name: "vertices", count: model.positions.count,
                              properties: ["position"] + (model.normals.isEmpty ? [] : ["normal"]) + (model.uvs.isEmpty ? [] : ["uv"])
                                + (model.colors.isEmpty ? [] : ["colour"])),
            SceneInfo.Element(name: "triangles", count: model.indices.count / 3, properties: []),
            SceneInfo.Element(name: "materials", count: model.materials.count, properties: model.materials.map(\.name)),
            SceneInfo.Element(name: "textures", count: textureNames.count, properties: textureNames),
        ]
        return ReadResult(scene: .mesh(mesh), format: format, variant: model.variant, version: "", elements: elements, warnings: warnings)
    }

    static func picture(_ image: ImportedModel.EmbeddedImage, name: String, warnings: inout [String]) -> Texture? {
        switch image {
        case let .rgba(w, h, texels):
            let pixels = (0..<w * h).map { i in
                PackedColor.pack(r: texels[4 * i], g: texels[4 * i + 1], b: texels[4 * i + 2], a: texels[4 * i + 3])
            }
            return Texture(RGBAImage(width: w, height: h, pixels: pixels))
        case .encoded(let bytes):
            #if SCENEIO_NO_IMAGEIO
            return nil
            #else
            do { return Texture(try ImageFile.decode(Data(bytes), name: name)) } catch {
                warnings.append("\(error) (drawn untextured)")
                return nil
            }
            #endif
        }
    }

    static func picture(file: String, warnings: inout [String]) -> Texture? {
        #if SCENEIO_NO_IMAGEIO
        return nil
        #else
        do { return Texture(try ImageFile.load(file)) } catch {
            warnings.append("\(error) (drawn untextured)")
            return nil
        }
        #endif
    }
}
