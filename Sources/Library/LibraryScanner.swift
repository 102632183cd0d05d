// LibraryScanner — finds the scenes in the library's folders: every file we read, SOG folders,
// our scene JSON; the folder itself and one level of subfolders.
import Viewer
import Foundation

/// Finds scene files. Rules, per folder named:
/// - its files we read: `.ply`, `.splat`, `.ksplat`, `.spz`, `.sog`, `.obj`, `.stl`, `.gltf`, `.glb`, `.fbx`, `.dae`, `.3ds`, and `.json` files that
///   are scene descriptions (a JSON object with a `"type"`; placement sidecars
///   `*.splatframe.json`, camera and bench JSON are left out);
/// - a subfolder holding `meta.json` is one entry (an unbundled SOG), one holding
///   `lod-meta.json` too (a streamed SOG); any other subfolder is looked into one level deep
///   (its files and SOG folders, not its own subfolders);
/// - a folder that is itself a SOG folder is one entry; a file named directly is one entry;
/// - hidden names (`.x`) are skipped; each path is listed once (the first folder naming it wins);
///   within a folder, entries are sorted by name (case-insensitively).
///
/// Cost: one directory listing per folder and subfolder, one `stat` per entry, and the first
/// kilobytes of each `.json` file.
public enum LibraryScanner {
    /// Extensions of the scene files SceneIO reads (JSON is checked separately).
    public static let sceneExtensions: Set<String> = ["ply", "splat", "ksplat", "spz", "sog", "obj", "stl", "gltf", "glb", "fbx", "dae", "3ds"]

    /// The entries in `folders` (folders or files), in order. Missing paths are skipped.
    public static func scan(_ folders: [String]) -> [LibraryEntry] {
        var seen = Set<String>()
        var out: [LibraryEntry] = []
        func add(_ e: LibraryEntry?) {
            guard let e, seen.insert(e.path).inserted else { return }
            out.append(e)
        }
        for root in folders {
            let path = absolute(root)
            guard let type = itemType(path) else { continue }
            switch type {
            case .file:
                if isSceneFile(path) { add(.stamped(path: path, displayName: (path as NSString).lastPathComponent, kind: .file)) }
            case .folder:
                if let kind = sogKind(path) {
                    add(.stamped(path: path, displayName: (path as NSString).lastPathComponent, kind: kind))
                    continue
                }
                for e in entries(in: path, prefix: "", depth: 1) { add(e) }
            }
        }
        return out
    }

    private enum ItemType { case file, folder }

    private static func itemType(_ path: String) -> ItemType? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        return isDir.boolValue ? .folder : .file
    }

    /// The scenes in `folder`; `depth` more levels of plain subfolders are looked into.
    private static func entries(in folder: String, prefix: String, depth: Int) -> [LibraryEntry] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted { $0.lowercased() == $1.lowercased() ? $0 < $1 : $0.lowercased() < $1.lowercased() }
        var files: [LibraryEntry] = [], deeper: [LibraryEntry] = []
        for name in names {
            let path = (folder as NSString).appendingPathComponent(name)
            switch itemType(path) {
            case .file?:
                if isSceneFile(path), let e = LibraryEntry.stamped(path: path, displayName: prefix + name, kind: .file) { files.append(e) }
            case .folder?:
                if let kind = sogKind(path) {
                    if let e = LibraryEntry.stamped(path: path, displayName: prefix + name, kind: kind) { files.append(e) }
                } else if depth > 0 {
                    deeper += entries(in: path, prefix: prefix + name + "/", depth: depth - 1)
                }
            case nil:
                break
            }
        }
        // The folder's own scenes first, then its subfolders'.
        return files + deeper
    }

    /// `.sogFolder` when `folder` holds `meta.json`, `.streamedSOG` for `lod-meta.json`, else nil.
    public static func sogKind(_ folder: String) -> LibraryEntry.Kind? {
        let fm = FileManager.default
        if fm.fileExists(atPath: (folder as NSString).appendingPathComponent("meta.json")) { return .sogFolder }
        if fm.fileExists(atPath: (folder as NSString).appendingPathComponent("lod-meta.json")) { return .streamedSOG }
        return nil
    }

    /// Whether `path` is a file the library lists (by name; JSON by its first bytes).
    public static func isSceneFile(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        let ext = (name as NSString).pathExtension
        if sceneExtensions.contains(ext) { return true }
        guard ext == "json", SceneSource.isSceneDescription(path), !name.hasSuffix(".splatframe.json") else { return false }
        return looksLikeSceneDescription(path)
    }

    /// A JSON object with a `"type"` key near its start: our scene description (a broken one
    /// then shows its error in its cell); camera, bench and other JSON files have none.
    static func looksLikeSceneDescription(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = String(decoding: (try? h.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        guard head.drop(while: { $0.isWhitespace }).hasPrefix("{") else { return false }
        return head.contains("\"type\"")
    }

    /// `path` made absolute against the current folder and standardised (`..`, `.` and trailing `/` gone).
    public static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let abs = expanded.hasPrefix("/") ? expanded : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        return URL(fileURLWithPath: abs).standardizedFileURL.path
    }
}
