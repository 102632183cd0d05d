// splatframe — the command line, the SDL2 window, input and HUD.
// Every user error ends as one line on stderr and exit code 2 (see SplatFrameCommand+Main).
import ArgumentParser
import Foundation

// A parent may start us with signals blocked (test runners do); SDL turns SIGINT/SIGTERM into
// a quit event only if they can be delivered.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGINT)
sigaddset(&signals, SIGTERM)
pthread_sigmask(SIG_UNBLOCK, &signals, nil)

ImportModelCommand.offerToSceneIO()
SplatFrameCommand.mainReportingErrors()
