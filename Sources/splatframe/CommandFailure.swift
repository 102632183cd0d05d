// CommandFailure — a plain error for commands; `SplatFrameCommand.mainReportingErrors` prints
// every error as one line on stderr with exit code 2.
import ArgumentParser
import Foundation

/// A plain error carrying its message.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
