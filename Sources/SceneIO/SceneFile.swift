// SceneIO — SceneFile: the public entry points (load from a path or bytes, info, convert).
import Foundation
import RenderCore

/// Loads and converts scene files. All functions are synchronous and thread-safe.
public enum SceneFile {
    /// Loads a scene file, detecting its format from its bytes (extension as a hint).
    /// - Parameters:
    ///   - path: file path, or the folder of an unbundled SOG.
    ///   - progress: called with (bytes done, bytes total) during long loads.
    /// - Throws: `SceneIOError` with a one-line description.
    public static func load(path: String, progress: SceneLoadProgress? = nil) throws -> LoadedScene {
        try loadWithInfo(path: path, progress: progress).scene
    }

    /// Loads a scene file and summarises it. A folder is read as an unbundled SOG (the folder
    /// holding `meta.json` and its images), or a streamed SOG when it holds `lod-meta.json`
    /// instead (whose finest level is then loaded whole: see `StreamedSOG.loadFinest`). A bundled
    /// `.sog` is read entry by entry from the file; every other file is mapped.
    public static func loadWithInfo(path: String, progress: SceneLoadProgress? = nil) throws -> (scene: LoadedScene, info: SceneInfo) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try SOGReader.readFolder(path, progress: progress)
            let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return (result.scene, SceneInfo(path: path, fileBytes: result.sourceBytes ?? 0, result: result, seconds: secs))
        }
        if SOGReader.isBundled(path: path) {
            // Entry by entry from the file: the archive is never mapped or read whole.
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try SOGReader.readBundled(path: path, progress: progress)
            let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return (result.scene, SceneInfo(path: path, fileBytes: result.sourceBytes ?? 0, result: result, seconds: secs))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "\(error.localizedDescription)" : "no such file"
            throw SceneIOError.unreadable(file: path, reason: reason)
        }
        let dir = (path as NSString).deletingLastPathComponent
        return try loadWithInfo(data: data, name: path, format: nil, directory: dir.isEmpty ? "." : dir, sourcePath: path, progress: progress)
    }

    /// Loads a scene from bytes in memory (fuzzing, network, tests).
    /// - Parameters:
    ///   - data: the whole file.
    ///   - name: file name for the extension hint and error messages.
    ///   - format: skips detection when given.
    ///   - progress: (bytes done, bytes total).
    public static func load(data: Data, name: String, format: SceneFormat? = nil,
                            progress: SceneLoadProgress? = nil) throws -> LoadedScene {
        try loadWithInfo(data: data, name: name, format: format, directory: nil, progress: progress).scene
    }

    /// Summarises a scene file. Like `loadWithInfo(path:)`, except that a streamed SOG
    /// (`lod-meta.json` or its folder) is described from its metadata — levels, per-level splat
    /// counts, chunk files, missing chunks — without decoding any chunk.
    public static func info(path: String, progress: SceneLoadProgress? = nil) throws -> SceneInfo {
        if StreamedSOG.metaPath(for: path) != nil {
            let start = DispatchTime.now().uptimeNanoseconds
            let sog = try StreamedSOG.open(path)
            let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return SceneInfo(path: path, streamed: sog, seconds: secs)
        }
        return try loadWithInfo(path: path, progress: progress).info
    }

    /// Loads bytes and summarises them; `directory` lets OBJ files find their .mtl and textures.
    public static func loadWithInfo(data: Data, name: String, format: SceneFormat? = nil, directory: String? = nil,
                                    progress: SceneLoadProgress? = nil) throws -> (scene: LoadedScene, info: SceneInfo) {
        try loadWithInfo(data: data, name: name, format: format, directory: directory, sourcePath: nil, progress: progress)
    }

    /// `sourcePath`: the file the bytes were read from, when they were (the importer child reads it itself).
    static func loadWithInfo(data: Data, name: String, format: SceneFormat?, directory: String?, sourcePath: String?,
                             progress: SceneLoadProgress?) throws -> (scene: LoadedScene, info: SceneInfo) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try data.withUnsafeBytes { raw -> ReadResult in
            let view = ByteView(bytes: raw, file: name)
            guard let f = format ?? SceneFormat.detect(raw, name: name) else {
                throw SceneIOError.unknownFormat(file: name, found: view.sample(0, 12))
            }
            // glTF with KHR_gaussian_splatting primitives: our reader (the importer sees bare points).
            if f == .gltf, let splats = try GLTFSplatReader.readIfSplats(view, directory: directory, meshes: { doc in
                try GLTFMeshPart.read(doc, view: view, directory: directory)
            }) { return splats }
            if f.isImported { return try ImportedModelReader.read(path: sourcePath, view: view, format: f, directory: directory) }
            return try read(view, format: f, directory: directory, progress: progress)
        }
        let secs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (result.scene, SceneInfo(path: name, fileBytes: data.count, result: result, seconds: secs))
    }

    /// Dispatches to a reader.
    static func read(_ view: ByteView, format: SceneFormat, directory: String?, progress: SceneLoadProgress?) throws -> ReadResult {
        switch format {
        case .ply: return try PLYReader.read(view, progress: progress)
        case .splat: return try SplatFileReader.read(view, progress: progress)
        case .ksplat: return try KSplatReader.read(view, progress: progress)
        case .spz: return try SPZReader.read(view, progress: progress)
        case .obj: return try OBJReader.read(view, directory: directory, progress: progress)
        case .stl: return try STLReader.read(view, progress: progress)
        case .sog: return try SOGReader.read(view, directory: directory, progress: progress)
        case .gltf:
            if let splats = try GLTFSplatReader.readIfSplats(view, directory: directory, meshes: { doc in
                try GLTFMeshPart.read(doc, view: view, directory: directory)
            }) { return splats }
            return try ImportedModelReader.read(path: nil, view: view, format: format, directory: directory)
        case .fbx, .dae, .threeDS:
            return try ImportedModelReader.read(path: nil, view: view, format: format, directory: directory)
        }
    }

    /// Converts a scene file; formats come from the extensions. Splats can be written as
    /// 3DGS `.ply` (every SH coefficient, degree 4 included), `.splat` (base colour only) or
    /// `.spz` (v3 gzip by default, v4 with `spz.version = 4`; SH up to degree 4, quantised),
    /// `.glb`/`.gltf` (KHR_gaussian_splatting, float accessors or an SPZ payload, SH up to degree 3);
    /// meshes and point clouds as `.ply`.
    /// - Parameter spz: options for an `.spz` output (and for the payload of a compressed glTF);
    ///   its `antialiased` flag, when nil, is the input's.
    /// - Parameter compressGLTF: a `.glb`/`.gltf` output holds its splats as one SPZ payload
    ///   (`KHR_gaussian_splatting_compression_spz_2`, SPZ version 3) instead of float accessors.
    /// A PLY output keeps the input's render mode (`comment SplatRenderMode: …`; an antialiased
    /// `.spz` gives `mip`).
    /// - Returns: the input's summary.
    @discardableResult
    public static func convert(input: String, output: String, spz: SPZWriteOptions = SPZWriteOptions(), compressGLTF: Bool = false,
                               progress: SceneLoadProgress? = nil) throws -> SceneInfo {
        let (scene, info) = try loadWithInfo(path: input, progress: progress)
        var options = spz
        if options.antialiased == nil { options.antialiased = info.antialiased }
        try save(scene, to: output, spz: options, compressGLTF: compressGLTF, renderMode: info.renderMode ?? (info.antialiased == true ? .mip : nil))
        return info
    }

    /// Writes a scene; the format comes from the extension.
    /// - Parameters:
    ///   - spz: options for an `.spz` output, or a compressed glTF's payload (ignored for other formats).
    ///   - compressGLTF: a `.glb`/`.gltf` output holds an SPZ payload (an error for any other output).
    ///   - renderMode: written into a 3DGS `.ply` output's header (ignored for other formats).
    public static func save(_ scene: LoadedScene, to path: String, spz: SPZWriteOptions = SPZWriteOptions(), compressGLTF: Bool = false,
                            renderMode: SplatRenderMode? = nil) throws {
        let ext = (path as NSString).pathExtension
        guard !compressGLTF || SceneFormat(extension: ext) == .gltf else {
            throw SceneIOError.unsupported(file: path, reason: "SPZ compression inside glTF applies to .glb and .gltf outputs, not .\(ext)")
        }
        let payload = compressGLTF ? spz : nil
        // SOG v2: a bundled .sog, or a folder named by its meta.json (not lod-meta.json).
        let name = (path as NSString).lastPathComponent.lowercased()
        if case .splats(let s) = scene, ext.lowercased() == "sog" || name == "meta.json" {
            return try SOGWriter.write(s, to: path)
        }
        let bytes: [UInt8]
        switch (SceneFormat(extension: ext), scene) {
        case (.ply?, .splats(let s)): bytes = GaussianPLYWriter.encode(s, renderMode: renderMode)
        case (.splat?, .splats(let s)): bytes = SplatFileWriter.encode(s)
        case (.spz?, .splats(let s)): bytes = try SPZWriter.encode(s, options: spz, file: path)
        case (.gltf?, .splats(let s)) where ext.lowercased() == "glb": bytes = try GLTFSplatWriter.encodeGLB(s, file: path, spz: payload)
        case (.gltf?, .splats(let s)) where ext.lowercased() == "gltf": bytes = try GLTFSplatWriter.encodeGLTF(s, file: path, spz: payload)
        case (.ply?, .mesh(let m)): bytes = MeshPLYWriter.encode(m)
        case (.ply?, .points(let p)): bytes = MeshPLYWriter.encode(p)
        default:
            throw SceneIOError.unsupported(file: path, reason: "cannot write this scene as .\(ext) (splats: .ply, .splat, .spz, .glb, .gltf, .sog or a SOG folder's meta.json; meshes and points: .ply)")
        }
        do { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw SceneIOError.unwritable(file: path, reason: error.localizedDescription)
        }
    }
}
