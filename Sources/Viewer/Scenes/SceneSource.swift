// SceneSource — what a scene name or path means, decided once: `cube`, `sphere:N`,
// `generate:N`, a scene JSON, a streamed SOG, an animated capture (a folder or ZIP of splat
// files), or a file SceneIO reads. Every command, the
// library and drops on the window go through `resolve`.
import Downloads
import Foundation
import SceneIO

/// A scene as named by a user, classified but not yet read.
public enum SceneSource: Sendable, Equatable, CustomStringConvertible {
    /// The parallax-cube room (`cube`); its walls, depth and targets are the command line's
    /// room options (`SceneLoader.ModelOptions.room`).
    case room
    /// A lit grey sphere of about `triangles` triangles (`sphere:N`).
    case sphere(triangles: Int)
    /// Our procedural splat object of `splats` splats (`generate:N`, y up).
    case generated(splats: Int)
    /// A scene JSON (`Scenes/cube.json`): the room with its own walls.
    case sceneJSON(path: String)
    /// A streamed SOG: `lod-meta.json` (`meta`) as named by `path` (the file or its folder).
    case streamedSOG(path: String, meta: String)
    /// An animated capture: a folder that is not a SOG (no `meta.json` or `lod-meta.json`), or a
    /// `.zip` without a `meta.json` entry, of splat files (`SplatSequence.open`). A scene JSON of
    /// `"type": "sequence"` is a `sceneJSON`.
    case sequence(path: String)
    /// A mesh, splat or point-cloud file, or a SOG (`.sog`, a folder, its `meta.json`): SceneIO reads it.
    case file(path: String)
    /// An `http(s)://` URL of one such file: downloaded first (`Downloads`), then read as a file.
    case url(String)

    /// Largest `sphere:N` (triangles) and `generate:N` (splats): about 5 GB of splats.
    public static let maxSphereTriangles = 20_000_000
    public static let maxGeneratedSplats = 20_000_000

    /// Classifies `text`: built-in names first, then the file system. Throws a one-line
    /// `ViewerError.sceneLoad` for a malformed built-in name or a path that does not exist.
    public static func resolve(_ text: String) throws -> SceneSource {
        if text == "cube" { return .room }
        if Downloader.isURL(text) { return .url(text) }
        if text.hasPrefix("sphere:") {
            guard let n = CountText.parse(String(text.dropFirst(7))), n >= 8, n <= maxSphereTriangles else {
                throw ViewerError.sceneLoad(path: text, reason: "expected sphere:N with N = 8…\(maxSphereTriangles) triangles (e.g. sphere:70k)")
            }
            return .sphere(triangles: n)
        }
        if text.hasPrefix("generate:") {
            guard let n = CountText.parse(String(text.dropFirst(9))), n >= 1, n <= maxGeneratedSplats else {
                throw ViewerError.sceneLoad(path: text, reason: "expected generate:N with N = 1…\(maxGeneratedSplats) splats (e.g. generate:150k)")
            }
            return .generated(splats: n)
        }
        guard !text.isEmpty, FileManager.default.fileExists(atPath: text) else {
            throw ViewerError.sceneLoad(path: text, reason: text.isEmpty ? "empty scene name" : "no such file")
        }
        if isSceneDescription(text) { return .sceneJSON(path: text) }
        if let meta = StreamedSOG.metaPath(for: text) { return .streamedSOG(path: text, meta: meta) }
        if SplatSequence.isFrameFolder(text) { return .sequence(path: text) }
        if SplatSequence.isFrameZip(text), !((try? SplatSequence.zipEntryNames(text)) ?? []).contains("meta.json") {
            return .sequence(path: text)
        }
        return .file(path: text)
    }

    /// True for our scene JSON files (`Scenes/cube.json`): a `.json` that is not a SOG's
    /// `meta.json` nor a streamed SOG's `lod-meta.json` (those are splat files).
    public static func isSceneDescription(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return name.hasSuffix(".json") && name != "meta.json" && !name.hasSuffix("lod-meta.json")
    }

    /// The user's file a model's placement is saved next to (`FILE.splatframe.json`): files and
    /// streamed SOGs; nil for built-in scenes and scene JSON.
    public var modelFile: String? {
        switch self {
        case .file(let p), .streamedSOG(let p, _), .sequence(let p): return p
        default: return nil
        }
    }

    /// The file or folder read, if any.
    public var path: String? {
        switch self {
        case .file(let p), .streamedSOG(let p, _), .sceneJSON(let p), .sequence(let p): return p
        default: return nil
        }
    }

    /// Whether this is the room (`cube` or a scene JSON).
    public var isRoom: Bool {
        switch self {
        case .room, .sceneJSON: return true
        default: return false
        }
    }

    /// The name the user would write for it.
    public var description: String {
        switch self {
        case .room: return "cube"
        case .sphere(let n): return "sphere:\(n)"
        case .generated(let n): return "generate:\(n)"
        case .sceneJSON(let p), .streamedSOG(let p, _), .sequence(let p), .file(let p), .url(let p): return p
        }
    }
}
