import ArgumentParser
import AssimpImport
import Foundation
import SceneIO

/// `splatframe import-model --output OUT FILE` (hidden): the importer child process. SceneIO's
/// `ModelImporterProcess` runs it for glTF, FBX, COLLADA and 3DS so that Assimp, which can crash
/// or hang on malformed files, runs apart from the viewer; `offerToSceneIO` tells SceneIO so at
/// start-up. Writes `ImportedModel`'s bytes to OUT; a failure is one line on stderr and exit status 1.
struct ImportModelCommand: ParsableCommand {
    /// The hidden command's name (the child's command line: `splatframe import-model --output OUT FILE`).
    static let name = "import-model"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Import a glTF, FBX, COLLADA or 3DS file with Assimp (used internally, in a child process).",
        shouldDisplay: false)

    @Option(help: "Where to write the imported model.") var output: String
    @Argument(help: "The model file.") var file: String

    /// Gives SceneIO this executable's `import-model` as its importer child (this process's own
    /// file, `/proc/self/exe`, so that it is the same build whatever the working folder or PATH).
    static func offerToSceneIO() {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        guard !me.isEmpty else { return }
        ModelImporterProcess.command = ModelImporterCommand(executable: me, arguments: [name])
    }

    func run() throws {
        limitMemory()
        do {
            let model = try AssimpImporter.importModel(path: file)
            try Data(model.encode()).write(to: URL(fileURLWithPath: output))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Caps the child's address space at the machine's memory, so that a file claiming a huge
    /// buffer makes Assimp's allocation fail (an error) instead of swapping the machine to a halt.
    /// Sanitizer builds reserve terabytes of address space and are left alone.
    func limitMemory() {
        guard ProcessInfo.processInfo.environment["SPLATFRAME_SANITIZED"] == nil else { return }
        let bytes = rlim_t(ProcessInfo.processInfo.physicalMemory)
        var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
        setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
    }
}
