// splatframe — the command line, the SDL2 window, input and HUD.
// Every user error ends as one line on stderr and exit code 2.
import ArgumentParser
import Foundation

// A parent may start us with signals blocked (test runners do); SDL turns SIGINT/SIGTERM into
// a quit event only if they can be delivered.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_UNBLOCK, &signals, nil)

do {
    var command = try SplatFrameCommand.parseAsRoot()
    try command.run()
} catch {
    if SplatFrameCommand.exitCode(for: error) == .success { SplatFrameCommand.exit(withError: error) }
    if let code = error as? ExitCode { exit(code.rawValue) }
    let message = SplatFrameCommand.message(for: error)
    let line = message.split(separator: "\n").first.map(String.init) ?? "\(error)"
    FileHandle.standardError.write(Data("splatframe: \(line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line)\n".utf8))
    exit(2)
}
