// SceneIO — ModelImporterProcess: glTF, FBX, COLLADA and 3DS read by Assimp in a child process,
// so that a file that crashes or hangs Assimp (its glTF importer has open memory-safety bugs)
// costs a one-line error instead of the viewer.
//
// Contract: runs the `ModelImporterCommand` the program gave (`command`, set once at start-up;
// SceneIO names no program) with `--output OUT FILE` after its arguments, with a time limit and a
// bounded output. The child writes `ImportedModel`'s bytes to OUT and exits 0, or exits non-zero
// with its error as its last stderr line; a signal, a time-out or output that does not decode are
// one line each. Nothing is left behind in the temporary folder.
import Foundation
import RenderCore
import Workers

/// The importer child: an executable and the arguments that come before `--output OUT FILE`
/// (the executable's hidden command, say).
public struct ModelImporterCommand: Sendable, Equatable {
    /// Path of the program to start.
    public var executable: String
    /// Arguments before `--output OUT FILE`.
    public var arguments: [String]

    public init(executable: String, arguments: [String] = []) {
        self.executable = executable; self.arguments = arguments
    }
}

/// Runs the importer child process and decodes what it sends back.
public enum ModelImporterProcess {
    /// Longest a file may take to import before the child is killed (seconds).
    public static let timeLimit: Double = 120
    /// Largest output accepted from the child (bytes): 4 GiB.
    public static let outputLimit = 4 << 30

    private static let configured = Locked<ModelImporterCommand?>(nil)

    /// The importer every glTF, FBX, COLLADA or 3DS read runs (nil until the program gives one;
    /// without one those reads fail with a one-line `importFailed`). Set it at start-up.
    public static var command: ModelImporterCommand? {
        get { configured.withLock { $0 } }
        set { configured.withLock { $0 = newValue } }
    }

    /// Imports the model at `path` in a child process.
    /// - Parameters:
    ///   - shownAs: the name used in errors (the user's path, or the name of bytes in memory).
    ///   - importer: the child to run (default `command`); tests give stand-ins that crash or hang.
    ///   - timeLimit: seconds before the child is killed.
    public static func run(path: String, shownAs: String? = nil, importer: ModelImporterCommand? = nil,
                           timeLimit: Double = ModelImporterProcess.timeLimit) throws -> ImportedModel {
        let name = shownAs ?? path
        guard let importer = importer ?? command else {
            throw SceneIOError.importFailed(file: name, reason: "glTF, FBX, COLLADA and 3DS are read by an importer process, and this program gave none")
        }
        let exe = importer.executable
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("splatframe-import-\(getpid())-\(UUID().uuidString)").path
        do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: false) } catch {
            throw SceneIOError.importFailed(file: name, reason: "cannot make a temporary folder for the importer: \(error.localizedDescription)")
        }
        defer { try? fm.removeItem(atPath: dir) }
        let out = (dir as NSString).appendingPathComponent("model.bin")
        let err = (dir as NSString).appendingPathComponent("stderr.txt")
        _ = fm.createFile(atPath: err, contents: nil)

        // posix_spawn (`ChildProcess`): Foundation's Process kept each one it ran alive.
        let errFD = open(err, O_WRONLY | O_CLOEXEC)
        guard errFD >= 0 else {
            throw SceneIOError.importFailed(file: name, reason: "cannot open the importer's error log in \(dir)")
        }
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(exe, importer.arguments + ["--output", out, path], stdout: devNull >= 0 ? devNull : nil, stderr: errFD)
        } catch {
            close(errFD); if devNull >= 0 { close(devNull) }
            throw SceneIOError.importFailed(file: name, reason: "cannot start the importer \(exe): \(String(describing: error))")
        }
        close(errFD); if devNull >= 0 { close(devNull) }
        guard let ended = child.wait(timeout: timeLimit) else {
            child.kill()
            _ = child.wait()
            throw SceneIOError.importFailed(file: name, reason: "the importer (Assimp) took longer than \(String(format: "%g", timeLimit)) s and was stopped")
        }
        let lastError = (try? String(contentsOfFile: err, encoding: .utf8))?
            .split(whereSeparator: \.isNewline).last.map(String.init)
        if case .signaled(let signal) = ended {
            throw SceneIOError.importFailed(file: name, reason: "the importer (Assimp) crashed on this file (signal \(signal)\(signal == SIGKILL ? ", perhaps out of memory" : ""))")
        }
        guard ended.status == 0 else {
            throw SceneIOError.importFailed(file: name, reason: Self.stripFileName(lastError ?? "the importer exited with status \(ended.status)", path: path))
        }
        let size = RegularFile.bytes(out)
        guard let size, size <= outputLimit else {
            throw SceneIOError.importFailed(file: name, reason: size == nil ? "the importer wrote no model" : "the importer's output (\(size!) bytes) is over \(outputLimit) bytes")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: out), options: .alwaysMapped) } catch {
            throw SceneIOError.importFailed(file: name, reason: "cannot read the importer's output: \(error.localizedDescription)")
        }
        return try ImportedModel.decode(data, file: name)
    }

    /// The child's message names the file it was given; ours names it again, so drop its prefix.
    static func stripFileName(_ line: String, path: String) -> String {
        let prefix = path + ": "
        let stripped = line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
        return stripped.hasPrefix("Error: ") ? String(stripped.dropFirst(7)) : stripped
    }
}
