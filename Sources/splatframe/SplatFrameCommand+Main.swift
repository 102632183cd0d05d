// SplatFrameCommand+Main — the entry point: usage errors also print one line and exit 2.
import ArgumentParser
import Foundation

extension SplatFrameCommand {
    /// Parses and runs the command. Help and `--version` behave as usual; every error —
    /// including ArgumentParser's usage errors — prints one line to stderr and exits with 2.
    static func mainReportingErrors(_ arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            RunMarker.reached(command)
            try command.run()
            Foundation.exit(0)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }   // --help, --version
            // A library's value-carrying error is worded with the flag that is its remedy (ErrorWording).
            let text = ErrorWording.flagged(error) ?? self.message(for: error)
            let message = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("splatframe: error: \(message)\n".utf8))
            Foundation.exit(2)
        }
    }
}

/// The command-line fuzz test's probe: with `SPLATFRAME_RUN_MARKER=FILE` set, the name of each
/// command whose `run()` is reached (its arguments parsed and validated) is appended to FILE, so
/// the fuzz can report how many runs got past the argument parser.
enum RunMarker {
    static func reached(_ command: ParsableCommand) {
        guard let path = ProcessInfo.processInfo.environment["SPLATFRAME_RUN_MARKER"], !path.isEmpty,
              let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((type(of: command).configuration.commandName ?? "\(type(of: command))").utf8 + [0x0A]))
        try? handle.close()
    }
}
