import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe cube` (the default): the parallax-cube room in a window.
struct CubeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cube", abstract: "Open the parallax-cube room in a window (the default).",
        discussion: "Window controls:\n" + WindowControls.helpText)

    @OptionGroup var room: RoomOptions
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var head: HeadOptions
    @Option(help: .hidden) var frames: Int?

    func run() throws {
        let description = try room.description()
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, configOption: configOption, head: head, frames: frames,
                               modelFile: nil) { screen, _ in
            MeshScene(room: try description.room(screen: screen))
        }
    }
}
