import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe open FILE`: a scene file (`Scenes/*.json`), mesh or splat file in the window.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open a scene, mesh or splat file in a window.")

    @Argument(help: "Scene JSON (Scenes/cube.json), mesh (PLY/OBJ/STL) or splat file (PLY/.splat/.spz).") var file: String
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var windowOptions: WindowOptions
    @Option(help: .hidden) var frames: Int?

    func run() throws {
        let loader = try SceneLoader(path: file)
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, frames: frames) { screen in
            try loader.scene(screen: screen)
        }
    }
}
