import Foundation
import HeadTracking
import RenderCore
import Viewer

/// Opens the window, resolves the screen and head tracking, builds the scene, runs the loop.
enum WindowLauncher {
    static func run(windowOptions: WindowOptions, screenOptions: ScreenOptions, head: HeadOptions, frames: Int?,
                    modelFile: String?, makeScene: (ScreenGeometry) throws -> Scene) throws {
        let size = try OptionParsing.size(windowOptions.size)
        let threads = try windowOptions.validatedThreads()
        let screenFlag = try screenOptions.flag()
        let headOptions = try head.resolved()
        let window = try SDLWindow(title: "SplatFrame", width: size.width, height: size.height, fullscreen: windowOptions.fullscreen)
        let session = try HeadTrackingSession(options: headOptions, screenFlag: screenFlag, displayScreen: window.physicalDisplaySize())
        let screen = session.screen
        FileHandle.standardError.write(Data(String(format: "splatframe: screen %.3f×%.3f m (from %@), head %@\n",
                                                   screen.width, screen.height, session.settings.screen.origin.rawValue,
                                                   "\(session.settings.head.value)").utf8))
        let scene = try makeScene(screen)
        try session.start()
        defer { session.stop() }
        let loop = WindowSession(window: window, scene: scene, context: RenderContext(threads: threads), tracking: session,
                                 modelFile: modelFile)
        try loop.run(maxFrames: frames)
        if let e = session.recordError { throw e }
    }
}
