// SplatFrameCommand+Main — the entry point: usage errors also print one line and exit 2.
import ArgumentParser
import Foundation

extension SplatFrameCommand {
    /// Parses and runs the command. Help and `--version` behave as usual; every error —
    /// including ArgumentParser's usage errors — prints one line to stderr and exits with 2.
    static func mainReportingErrors(_ arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }   // --help, --version
            let message = self.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("splatframe: error: \(message)\n".utf8))
            Foundation.exit(2)
        }
    }
}
