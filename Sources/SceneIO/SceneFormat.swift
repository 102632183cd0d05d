// SceneIO — SceneFormat: the file formats and their detection from magic bytes and extension.
import Foundation

/// A scene-file format SceneIO reads (and, for some, writes).
public enum SceneFormat: String, Sendable, CaseIterable, Codable {
    /// Any PLY (mesh, point cloud, 3DGS or PlayCanvas compressed; the header decides).
    case ply
    /// antimatter15 `.splat`: 32-byte records.
    case splat
    /// GaussianSplats3D `.ksplat` (compression levels 0–2; no magic: known by its extension).
    case ksplat
    /// Niantic `.spz` (v2/v3 gzip, v4 zstd; written as v3 or v4).
    case spz
    /// Wavefront OBJ (+ MTL).
    case obj
    /// STL, binary or ASCII.
    case stl
    /// PlayCanvas SOG v1/v2: a `.sog` ZIP, or an unbundled folder (or the path of its `meta.json`).
    case sog
    /// glTF 2.0: `.gltf` (JSON with `.bin` buffers and pictures beside it) or `.glb` (one binary
    /// file). Imported by Assimp in a child process (`ModelImporterProcess`), like the three below;
    /// a file with `KHR_gaussian_splatting` primitives is read by our own `GLTFSplatReader` instead.
    case gltf
    /// Autodesk FBX, binary or ASCII.
    case fbx
    /// COLLADA `.dae` (XML).
    case dae
    /// Autodesk 3D Studio `.3ds`.
    case threeDS = "3ds"

    /// Formats read through the importer child process (Assimp) rather than our own readers.
    public var isImported: Bool {
        switch self {
        case .gltf, .fbx, .dae, .threeDS: return true
        default: return false
        }
    }

    /// The format an extension names (case-insensitive, with or without the dot), or nil.
    public init?(extension ext: String) {
        let e = ext.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        switch e {
        case "ply": self = .ply
        case "splat": self = .splat
        case "ksplat": self = .ksplat
        case "spz": self = .spz
        case "obj": self = .obj
        case "stl": self = .stl
        case "sog": self = .sog
        case "gltf", "glb": self = .gltf
        case "fbx": self = .fbx
        case "dae": self = .dae
        case "3ds": self = .threeDS
        default: return nil
        }
    }

    /// Detects the format from the first bytes (magic numbers and headers), using the file
    /// name's extension only where bytes are ambiguous (.splat has no magic; OBJ and STL text).
    /// A ZIP (`PK\u{3}\u{4}`) is a bundled SOG; JSON in a file named `meta.json` (or
    /// `lod-meta.json`, a streamed SOG's top level) is an unbundled SOG's. `glTF` starts a `.glb`,
    /// `Kaydara FBX Binary` an FBX, `<COLLADA` in the first 4 KB a `.dae`, a 3DS main chunk
    /// (0x4D4D and the file's length) a `.3ds`; a `.gltf` (JSON) and ASCII FBX go by extension.
    /// - Parameters:
    ///   - bytes: the whole file (or at least its first kilobytes and its length).
    ///   - name: file name or path, for the extension hint.
    public static func detect(_ bytes: UnsafeRawBufferPointer, name: String) -> SceneFormat? {
        let hint = SceneFormat(extension: (name as NSString).pathExtension)
        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return bytes.count >= u.count && zip(bytes.prefix(u.count), u).allSatisfy { $0 == $1 }
        }
        if starts("ply\n") || starts("ply\r\n") { return .ply }
        if starts("glTF") { return .gltf }
        if starts("Kaydara FBX Binary") { return .fbx }
        if starts("NGSP") || (bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) { return .spz }
        if SOGReader.isZip(bytes) && hint != .splat { return .sog }
        if bytes.count >= 84 {
            let n = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 80, as: UInt32.self)))
            if 84 + 50 * n == bytes.count { return .stl }
        }
        if hint == .splat || hint == .ksplat || hint == .stl || hint == .sog { return hint }
        if let hint, hint.isImported { return hint }
        let head = bytes.prefix(4096)
        let text = String(decoding: head, as: UTF8.self)
        if (name as NSString).lastPathComponent.lowercased().hasSuffix("meta.json"),
           text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }).hasPrefix("{") { return .sog }
        if text.contains("<COLLADA") { return .dae }
        if bytes.count >= 6, bytes[0] == 0x4D, bytes[1] == 0x4D,
           Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt32.self))) == bytes.count { return .threeDS }
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        if trimmed.hasPrefix("solid") && (text.contains("facet") || text.contains("endsolid")) { return .stl }
        if hint == .obj { return .obj }
        // OBJ: the first keyword of the first non-comment line.
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).prefix(50) {
            let t = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let k = t.first else { continue }
            if k.hasPrefix("#") { continue }
            if ["v", "vt", "vn", "f", "o", "g", "mtllib", "usemtl", "s"].contains(String(k)) { return .obj }
            break
        }
        // A .ply or .spz name with the wrong magic goes to its reader, which names the problem.
        if hint == .ply || hint == .spz { return hint }
        return nil
    }
}
