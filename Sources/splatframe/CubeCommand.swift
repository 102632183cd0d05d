import ArgumentParser
import Downloads
import Foundation
import RenderCore
import Viewer

/// `splatframe cube` (the default): the parallax-cube room in a window.
struct CubeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cube", abstract: "Open the parallax-cube room in a window (the default).",
        discussion: "Window controls:\n" + KeyBindings.helpText)

    @OptionGroup var room: RoomOptions
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var head: HeadOptions
    @OptionGroup var download: DownloadOptionGroup

    func run() throws {
        let description = room.description
        // Pictures decoded and videos opened before the window opens, so a bad file is the one-line error.
        let walls = try description.openWalls(playback: .realtime)
        // A file or URL dropped on the window opens as `open` would open it.
        var drops = SceneLoader.ModelOptions()
        drops.download = download.options(defaultCache: DownloadOptions.defaultCacheFolder(), config: configOption.fileIfValid)
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, configOption: configOption, head: head.resolved,
                               modelFile: nil, dropOptions: drops) { screen, _ in
            description.scene(screen: screen, walls: walls)
        }
    }
}
