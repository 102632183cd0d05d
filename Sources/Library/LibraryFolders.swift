// LibraryFolders — where the library looks by default (the bundled Scenes/ and the user's data
// folder) and where it caches thumbnails, following the XDG base-directory rules.
import Viewer
import Foundation

/// Default folders of the scene library.
public enum LibraryFolders {
    /// The folders `splatframe library` shows with no arguments: the bundled `Scenes/` and
    /// `$XDG_DATA_HOME/splatframe` (else `~/.local/share/splatframe`), those that exist.
    public static func defaults(environment: [String: String] = ProcessInfo.processInfo.environment,
                                executable: String? = nil) -> [String] {
        var out: [String] = []
        if let s = bundledScenes(executable: executable) { out.append(s) }
        let data = userData(environment: environment)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: data, isDirectory: &isDir), isDir.boolValue { out.append(data) }
        return out
    }

    /// `$XDG_DATA_HOME/splatframe`, else `$HOME/.local/share/splatframe` (it may not exist).
    public static func userData(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let x = environment["XDG_DATA_HOME"], !x.isEmpty { return x + "/splatframe" }
        return home(environment) + "/.local/share/splatframe"
    }

    /// `$XDG_CACHE_HOME/splatframe/thumbnails`, else `$HOME/.cache/splatframe/thumbnails`.
    public static func thumbnailCache(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let x = environment["XDG_CACHE_HOME"], !x.isEmpty { return x + "/splatframe/thumbnails" }
        return home(environment) + "/.cache/splatframe/thumbnails"
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// The project's `Scenes/` folder, found from the executable (symbolic links resolved: SwiftPM's
    /// `.build/release` is one): the nearest ancestor holding `Scenes/` beside `Package.swift` or
    /// `Scenes/cube.json`, else an installed `share/splatframe/Scenes` beside `bin/`, else
    /// `./Scenes` in the current folder. Nil when none exists.
    /// - Parameter executable: the binary's path (default: this process's).
    public static func bundledScenes(executable: String? = nil) -> String? {
        let fm = FileManager.default
        func isSceneFolder(_ d: String) -> Bool {
            var isDir: ObjCBool = false
            return fm.fileExists(atPath: d, isDirectory: &isDir) && isDir.boolValue
        }
        let found = shipped(sourceTree: "Scenes", installed: "share/splatframe/Scenes", executable: executable) { dir, path in
            isSceneFolder(path) && (path.hasSuffix("share/splatframe/Scenes")
                                    || fm.fileExists(atPath: dir + "/Package.swift") || fm.fileExists(atPath: path + "/cube.json"))
        }
        return [found, LibraryScanner.absolute("Scenes")].compactMap { $0 }.first(where: isSceneFolder)
    }

    /// Something SplatFrame ships, found from the executable (links resolved): walking up from the
    /// binary's folder, `sourceTree` under a development tree (`.build/release/…`) or `installed`
    /// under an install prefix (`bin/…`), the first for which `accept(folder, path)` holds.
    public static func shipped(sourceTree: String, installed: String, executable: String? = nil,
                               accept: (String, String) -> Bool = { _, p in FileManager.default.fileExists(atPath: p) }) -> String? {
        let exe = executable ?? Bundle.main.executablePath ?? CommandLine.arguments.first ?? ""
        guard !exe.isEmpty else { return nil }
        var dir = URL(fileURLWithPath: LibraryScanner.absolute(exe)).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            for rel in [sourceTree, installed] {
                let p = dir.appendingPathComponent(rel).path
                if accept(dir.path, p) { return p }
            }
            if dir.path == "/" { break }
            dir.deleteLastPathComponent()
        }
        return nil
    }
}
