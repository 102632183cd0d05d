// SplatSequence — an animated capture as named by a user, its frames found and ordered but not
// yet decoded: a folder or a ZIP of splat files (`frame_0001.ply`…, in the order of the numbers
// in their names), or a scene JSON of `"type": "sequence"`. Decoding one frame is synchronous
// and thread-safe (`decode(_:)`), so the window's decode-ahead thread and the headless commands
// share it.
import Foundation
import JSONInput
import RenderCore
import SceneIO
import ZipReading

/// An animated capture: splat files played one after another at `fps`, looped.
///
/// ```json
/// {"type": "sequence", "frames": ["a.ply", "b.ply", "c.spz"], "fps": 24}
/// ```
/// Frame paths in a JSON are relative to the JSON file. A folder or a ZIP plays its splat files
/// (`SplatSequence.frameExtensions`) at `defaultFPS`, ordered by the numbers in their names.
public struct SplatSequence: Sendable, Equatable {
    /// Where one frame's bytes are.
    public enum Frame: Sendable, Equatable {
        /// A file on disk.
        case file(String)
        /// Entry `entry` of the ZIP file at `zip`.
        case zipEntry(zip: String, entry: String)

        /// The frame's file or entry name, for messages.
        public var name: String {
            switch self {
            case .file(let p): return (p as NSString).lastPathComponent
            case .zipEntry(_, let e): return e
            }
        }
    }

    /// The folder, ZIP or JSON as named.
    public var path: String
    /// The frames in playing order (at least one).
    public var frames: [Frame]
    /// Frames per second (0 < fps ≤ `maxFPS`).
    public var fps: Double

    /// The rate of a folder or ZIP of frames (which carry none).
    public static let defaultFPS = 30.0
    /// The highest rate a sequence JSON may ask for.
    public static let maxFPS = 240.0
    /// The largest frame a ZIP entry may inflate to (bytes).
    public static let maxZipEntryBytes = 4 << 30
    /// File extensions read as frames from a folder or a ZIP (every splat format SceneIO reads).
    public static let frameExtensions: Set<String> = ["ply", "splat", "ksplat", "spz", "sog", "glb", "gltf"]

    public init(path: String, frames: [Frame], fps: Double) {
        self.path = path; self.frames = frames; self.fps = fps
    }

    /// Playing time of one loop (seconds).
    public var duration: Double { Double(frames.count) / fps }

    /// A rate as people write it: `30`, `23.976`.
    public static func rateText(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(format: "%.3g", fps)
    }

    /// The name shown in titles: the folder's, ZIP's or JSON's file name.
    public var name: String { (path as NSString).lastPathComponent }

    // MARK: finding frames

    /// Whether `path` is a folder that is not a SOG (no `meta.json`, no `lod-meta.json`): a
    /// folder of frames.
    public static func isFrameFolder(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return false }
        let fm = FileManager.default
        return !fm.fileExists(atPath: (path as NSString).appendingPathComponent("meta.json"))
            && !fm.fileExists(atPath: (path as NSString).appendingPathComponent("lod-meta.json"))
    }

    /// Whether `path` is a `.zip` file (by name; a bundled SOG is a `.sog`).
    public static func isFrameZip(_ path: String) -> Bool { (path as NSString).pathExtension.lowercased() == "zip" }

    /// The frames of a folder or a ZIP, in the order of the numbers in their names, at `defaultFPS`.
    /// Throws a one-line `ViewerError.sceneLoad` naming the folder or ZIP when it holds no splat files.
    public static func open(_ path: String) throws -> SplatSequence {
        let names: [String]
        let frame: (String) -> Frame
        if isFrameZip(path) {
            names = try zipEntryNames(path)
            frame = { .zipEntry(zip: path, entry: $0) }
        } else {
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw ViewerError.sceneLoad(path: path, reason: "cannot list the folder (\(error.localizedDescription))")
            }
            frame = { .file((path as NSString).appendingPathComponent($0)) }
        }
        let splats = names.filter { isFrameName($0) }.sorted(by: naturalOrder)
        guard !splats.isEmpty else {
            let kind = isFrameZip(path) ? "ZIP" : "folder"
            throw ViewerError.sceneLoad(path: path, reason: "no splat files in this \(kind) (frames such as frame_0001.ply; "
                + "read: .\(frameExtensions.sorted().joined(separator: ", ."))); a SOG folder holds meta.json")
        }
        return SplatSequence(path: path, frames: splats.map(frame), fps: defaultFPS)
    }

    /// Whether an entry or file name is a frame: a splat extension, not hidden (`._frame.ply`).
    static func isFrameName(_ name: String) -> Bool {
        let last = (name as NSString).lastPathComponent
        return !last.hasPrefix(".") && !name.hasSuffix("/") && frameExtensions.contains((last as NSString).pathExtension.lowercased())
    }

    /// The entry names of the ZIP at `path` (files only).
    static func zipEntryNames(_ path: String) throws -> [String] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            throw ViewerError.sceneLoad(path: path, reason: "cannot read (\(error.localizedDescription))")
        }
        do {
            return try data.withUnsafeBytes { try ZipArchive(bytes: $0, file: path).entryNames() }
        } catch let e as ZipError {
            throw ViewerError.sceneLoad(path: path, reason: "\(e)".replacingOccurrences(of: "\(path): ", with: ""))
        }
    }

    /// "Natural" order: runs of digits compare as numbers (frame_2 before frame_10), the rest as
    /// text; ties (frame_01, frame_1) by the whole name.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let ka = naturalKey(a), kb = naturalKey(b)
        for (x, y) in zip(ka, kb) where x != y {
            switch (x, y) {
            case let (.number(p), .number(q)): return p < q
            case let (.text(p), .text(q)): return p < q
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        return ka.count != kb.count ? ka.count < kb.count : a < b
    }

    private enum KeyPart: Equatable {
        case text(String)
        case number(Double)
    }

    private static func naturalKey(_ s: String) -> [KeyPart] {
        var parts: [KeyPart] = []
        var run = "", digits = false
        func flush() {
            guard !run.isEmpty else { return }
            parts.append(digits ? .number(Double(run) ?? 0) : .text(run.lowercased()))
            run = ""
        }
        for c in s {
            let d = c.isASCII && c.isNumber
            if d != digits { flush(); digits = d }
            run.append(c)
        }
        flush()
        return parts
    }

    // MARK: the JSON form

    /// The `"type": "sequence"` JSON `root` read from `path`: `frames` relative to `base`, each of
    /// which must exist and be readable; `fps` in (0, `maxFPS`] (default `defaultFPS`).
    static func parse(_ root: JSONNode, base: URL, path: String) throws -> SplatSequence {
        let list = try root.required("frames", "a list of splat file paths").array(count: 1...1_000_000, "a list of splat file paths")
        var frames: [Frame] = []
        for node in list {
            let p = try node.string("a splat file path")
            let full = p.hasPrefix("/") ? p : base.appendingPathComponent(p).standardizedFileURL.path
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDir) else {
                throw ViewerError.sceneLoad(path: path, reason: "frame \(frames.count + 1) '\(p)': no such file (\(full))")
            }
            guard isDir.boolValue || FileManager.default.isReadableFile(atPath: full) else {
                throw ViewerError.sceneLoad(path: path, reason: "frame \(frames.count + 1) '\(p)': cannot be read (\(full))")
            }
            frames.append(.file(full))
        }
        var fps = defaultFPS
        if let node = try root.optional("fps") {
            fps = try node.number(in: nil, "a frame rate, 0 < fps ≤ \(Int(maxFPS))")
            guard fps > 0, fps <= maxFPS else { throw node.fail("a frame rate, 0 < fps ≤ \(Int(maxFPS))", found: "\(fps)") }
        }
        return SplatSequence(path: path, frames: frames, fps: fps)
    }

    // MARK: decoding

    /// Decodes frame `index` (0-based) to splats: SceneIO reads the file or the ZIP entry (points
    /// become small round splats as a point-cloud file does). Throws one line naming the frame.
    public func decode(_ index: Int) throws -> (cloud: SplatCloud, info: SceneInfo) {
        let frame = frames[index]
        let (scene, info): (LoadedScene, SceneInfo)
        do {
            switch frame {
            case .file(let p):
                (scene, info) = try SceneFile.loadWithInfo(path: p)
            case let .zipEntry(zip, entry):
                let data = try Data(contentsOf: URL(fileURLWithPath: zip), options: .alwaysMapped)
                let bytes = try data.withUnsafeBytes { try ZipArchive(bytes: $0, file: zip).read(entry, cap: Self.maxZipEntryBytes) }
                (scene, info) = try SceneFile.loadWithInfo(data: bytes, name: entry)
            }
        } catch let e as ViewerError {
            throw e
        } catch let e as SceneIOError {
            throw ViewerError.sceneLoad(path: path, reason: "frame \(index + 1): \(e)")
        } catch let e as ZipError {
            throw ViewerError.sceneLoad(path: path, reason: "frame \(index + 1): \(e)")
        } catch {
            throw ViewerError.sceneLoad(path: path, reason: "frame \(index + 1) (\(frame.name)): \(error.localizedDescription)")
        }
        switch scene {
        case .splats(let cloud): return (cloud, info)
        case .points(let points): return (SceneLoader.splats(points), info)
        case .mesh, .mixed:
            throw ViewerError.sceneLoad(path: path, reason: "frame \(index + 1) (\(frame.name)): a mesh, not splats; a sequence plays splat files")
        }
    }

    /// The frame shown at `seconds` from the start while playing: ⌊seconds · fps⌋, wrapping past
    /// the end (and before the start). A hair (1e-9 frames) is added before rounding down, so a
    /// time written in decimals (0.29 s at 100 fps) lands on the frame it names.
    public func frameIndex(at seconds: Double) -> Int { SequenceClock.frameIndex(position: seconds * fps, count: frames.count) }
}
