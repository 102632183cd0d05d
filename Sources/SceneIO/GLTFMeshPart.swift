// SceneIO — GLTFMeshPart: the meshes of a glTF that also holds KHR_gaussian_splatting splats,
// read by the importer child process (Assimp) from a copy of the file that holds only them.
//
// Contract: the copy is the same asset with every splat primitive removed (a mesh left without
// primitives goes, and so does its nodes' reference to it; mesh indices are renumbered), the
// splat extensions struck from `extensionsUsed` and `extensionsRequired`, and the same BIN chunk;
// so Assimp never sees the splats (it would read them as points, or fail on an SPZ-compressed
// primitive's accessors without data). It is written to a private temporary folder, removed
// afterwards; a `.gltf`'s buffer files are named from there by relative paths to the file's own
// folder, and its pictures are found beside the original file as for any imported model. The mesh
// is in the file's frame. Failures are the importer's one-line errors.
import Foundation
import JSONInput

enum GLTFMeshPart {
    /// The mesh part of `doc` (bytes `view`, read from `directory`).
    static func read(_ doc: GLTFContainer, view: ByteView, directory: String?) throws -> ReadResult {
        let fm = FileManager.default
        let folder = fm.temporaryDirectory.appendingPathComponent("splatframe-meshes-\(getpid())-\(UUID().uuidString)").path
        do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
            throw SceneIOError.importFailed(file: view.file, reason: "cannot make a temporary folder for the importer: \(error.localizedDescription)")
        }
        defer { try? fm.removeItem(atPath: folder) }
        let (jsonData, bin, kind) = try GLTFContainer.chunks(view)
        let json = try meshesOnly(jsonData, file: view.file, bufferFolder: directory, from: folder)
        let bytes = kind == "glb" ? GLTFContainer.glb(json: json, bin: bin.map { [UInt8]($0) }) : json
        let path = (folder as NSString).appendingPathComponent("meshes." + kind)
        guard fm.createFile(atPath: path, contents: Data(bytes)) else {
            throw SceneIOError.importFailed(file: view.file, reason: "cannot write the meshes for the importer in \(folder)")
        }
        let model = try ModelImporterProcess.run(path: path, shownAs: view.file)
        return ImportedModelReader.convert(model, file: view.file, format: .gltf, directory: directory)
    }

    /// The JSON text without splat primitives (see the file header). `bufferFolder`: where the
    /// original's buffer files are (nil: none may be named), seen from `folder`.
    static func meshesOnly(_ json: Data, file: String, bufferFolder: String?, from folder: String) throws -> [UInt8] {
        guard var root = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw SceneIOError.badEntry(file: file, entry: "JSON", expected: "a glTF JSON object", found: "something else")
        }
        let splat = GLTFSplatReader.extensionName
        var kept: [Int: Int] = [:]                       // old mesh index → new
        var meshes: [Any] = []
        for (i, m) in (root["meshes"] as? [Any] ?? []).enumerated() {
            guard var mesh = m as? [String: Any] else { continue }
            let primitives = (mesh["primitives"] as? [Any] ?? []).filter { p in
                ((p as? [String: Any])?["extensions"] as? [String: Any])?[splat] == nil
            }
            guard !primitives.isEmpty else { continue }
            mesh["primitives"] = primitives
            kept[i] = meshes.count
            meshes.append(mesh)
        }
        root["meshes"] = meshes
        if var nodes = root["nodes"] as? [Any] {
            for i in nodes.indices {
                guard var node = nodes[i] as? [String: Any], let m = node["mesh"] as? Int else { continue }
                node["mesh"] = kept[m]                  // nil removes it: the mesh held only splats
                nodes[i] = node
            }
            root["nodes"] = nodes
        }
        let struck = Set([splat] + GLTFSplatPrimitive.spzExtensionNames)
        for key in ["extensionsUsed", "extensionsRequired"] {
            if let list = root[key] as? [Any] { root[key] = list.filter { !struck.contains($0 as? String ?? "") } }
        }
        // Buffer files beside the original, named from the temporary folder (Assimp joins the
        // asset's folder and the URI).
        if var buffers = root["buffers"] as? [Any], let bufferFolder {
            let up = String(repeating: "../", count: folder.split(separator: "/").count)
            let base = URL(fileURLWithPath: bufferFolder).standardizedFileURL.path
            for i in buffers.indices {
                guard var b = buffers[i] as? [String: Any], let uri = b["uri"] as? String, !uri.hasPrefix("data:"),
                      !uri.contains("://"), !uri.hasPrefix("/") else { continue }
                b["uri"] = up + String(base.drop { $0 == "/" }) + (base.hasSuffix("/") || base == "/" ? "" : "/") + uri
                buffers[i] = b
            }
            root["buffers"] = buffers
        }
        guard let out = try? JSONSerialization.data(withJSONObject: root) else {
            throw SceneIOError.badEntry(file: file, entry: "JSON", expected: "a document that can be written back", found: "one that cannot")
        }
        return [UInt8](out)
    }
}
