// CommandFailure — one-line errors on stderr and exit code 2 for every subcommand.
import ArgumentParser
import Foundation

/// Runs `body`; on any error prints `splatframe: error: …` (one line) to stderr and exits with 2.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as ExitCode {
        throw e
    } catch {
        let line = "\(error)".replacingOccurrences(of: "\n", with: " ")
        FileHandle.standardError.write(Data("splatframe: error: \(line)\n".utf8))
        throw ExitCode(2)
    }
}

/// A plain error carrying its message.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
