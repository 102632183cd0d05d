import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe cube` (the default): the parallax-cube room in a window.
struct CubeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cube", abstract: "Open the parallax-cube room in a window (the default).")

    @OptionGroup var room: RoomOptions
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var windowOptions: WindowOptions
    @Option(help: .hidden) var frames: Int?

    func run() throws {
        let description = try room.description()
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, frames: frames) { screen in
            MeshScene(room: try description.room(screen: screen))
        }
    }
}

/// Opens the window, works out the screen size, builds the scene and runs the loop.
enum WindowLauncher {
    static func run(windowOptions: WindowOptions, screenOptions: ScreenOptions, frames: Int?,
                    makeScene: (ScreenGeometry) throws -> Scene) throws {
        let size = try OptionParsing.size(windowOptions.size)
        let threads = try windowOptions.validatedThreads()
        let scale = try screenOptions.validatedMovementScale()
        let fixedEye = try windowOptions.eye.map { try OptionParsing.eye($0) }
        if let s = screenOptions.screenMM { _ = try OptionParsing.screenMillimetres(s) }
        let window = try SDLWindow(title: "SplatFrame", width: size.width, height: size.height, fullscreen: windowOptions.fullscreen)
        let (screen, source) = try screenOptions.screen(detected: window.physicalDisplaySize())
        FileHandle.standardError.write(Data(String(format: "splatframe: screen %.3f×%.3f m (from %@)\n",
                                                   screen.width, screen.height, source).utf8))
        let scene = try makeScene(screen)
        let session = WindowSession(window: window, scene: scene, context: RenderContext(threads: threads),
                                    screen: screen, movementScale: scale, fixedEye: fixedEye)
        try session.run(maxFrames: frames)
    }
}
