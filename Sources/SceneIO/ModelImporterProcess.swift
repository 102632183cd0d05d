// SceneIO — ModelImporterProcess: glTF, FBX, COLLADA and 3DS read by Assimp in a child process,
// so that a file that crashes or hangs Assimp (its glTF importer has open memory-safety bugs)
// costs a one-line error instead of the viewer.
//
// Contract: runs `splatframe import-model --output OUT FILE` (the same executable, a hidden
// command that links Assimp) with a time limit and a bounded output; the child's own error is
// its last stderr line; a signal, a time-out or output that does not decode are one line each.
// Nothing is left behind in the temporary folder.
import Foundation

/// Runs the importer child process and decodes what it sends back.
public enum ModelImporterProcess {
    /// The hidden command's name.
    public static let commandName = "import-model"
    /// Longest a file may take to import before the child is killed (seconds).
    public static let timeLimit: Double = 120
    /// Largest output accepted from the child (bytes): 4 GiB.
    public static let outputLimit = 4 << 30

    /// The executable that has the `import-model` command: this process when it is `splatframe`
    /// (the installed binary, the build's), else a `splatframe` beside this executable (the test
    /// runner in `.build/…/debug`), else nil.
    public static var executable: String? {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        if (me as NSString).lastPathComponent == "splatframe" { return me }
        let sibling = ((me as NSString).deletingLastPathComponent as NSString).appendingPathComponent("splatframe")
        return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : nil
    }

    /// Imports the model at `path` in a child process.
    /// - Parameters:
    ///   - shownAs: the name used in errors (the user's path, or the name of bytes in memory).
    ///   - importer: the executable to run (default `executable`); tests give stand-ins that crash or hang.
    ///   - timeLimit: seconds before the child is killed.
    public static func run(path: String, shownAs: String? = nil, importer: String? = nil,
                           timeLimit: Double = ModelImporterProcess.timeLimit) throws -> ImportedModel {
        let name = shownAs ?? path
        guard let exe = importer ?? executable else {
            throw SceneIOError.importFailed(file: name, reason: "glTF, FBX, COLLADA and 3DS are imported by the splatframe executable, which was not found beside this program")
        }
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("splatframe-import-\(getpid())-\(UUID().uuidString)").path
        do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: false) } catch {
            throw SceneIOError.importFailed(file: name, reason: "cannot make a temporary folder for the importer: \(error.localizedDescription)")
        }
        defer { try? fm.removeItem(atPath: dir) }
        let out = (dir as NSString).appendingPathComponent("model.bin")
        let err = (dir as NSString).appendingPathComponent("stderr.txt")
        _ = fm.createFile(atPath: err, contents: nil)

        let child = Process()
        child.executableURL = URL(fileURLWithPath: exe)
        child.arguments = [commandName, "--output", out, path]
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = FileHandle.nullDevice
        guard let errHandle = FileHandle(forWritingAtPath: err) else {
            throw SceneIOError.importFailed(file: name, reason: "cannot open the importer's error log in \(dir)")
        }
        child.standardError = errHandle
        let done = DispatchSemaphore(value: 0)
        child.terminationHandler = { _ in done.signal() }
        do { try child.run() } catch {
            try? errHandle.close()
            throw SceneIOError.importFailed(file: name, reason: "cannot start the importer \(exe): \(error.localizedDescription)")
        }
        try? errHandle.close()
        if done.wait(timeout: .now() + timeLimit) == .timedOut {
            kill(child.processIdentifier, SIGKILL)
            done.wait()
            throw SceneIOError.importFailed(file: name, reason: "the importer (Assimp) took longer than \(String(format: "%g", timeLimit)) s and was stopped")
        }
        let lastError = (try? String(contentsOfFile: err, encoding: .utf8))?
            .split(whereSeparator: \.isNewline).last.map(String.init)
        if child.terminationReason == .uncaughtSignal {
            let signal = child.terminationStatus
            throw SceneIOError.importFailed(file: name, reason: "the importer (Assimp) crashed on this file (signal \(signal)\(signal == SIGKILL ? ", perhaps out of memory" : ""))")
        }
        guard child.terminationStatus == 0 else {
            throw SceneIOError.importFailed(file: name, reason: Self.stripFileName(lastError ?? "the importer exited with status \(child.terminationStatus)", path: path))
        }
        let size = (try? fm.attributesOfItem(atPath: out)[.size] as? Int) ?? nil
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
