import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe open FILE`: a scene file (`Scenes/*.json`), mesh or splat file in the window.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open a scene, mesh or splat file in a window.")

    @Argument(help: "Scene JSON, mesh (PLY/OBJ/STL), splat file (PLY/.splat/.spz/compressed PLY), generate:N or sphere:N.")
    var file: String
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var head: HeadOptions
    @Option(help: .hidden) var frames: Int?

    func run() throws {
        let loader = try SceneLoader(path: file, options: try model.options(), progress: LoadProgress.reporter(for: file))
        let isFile = FileManager.default.fileExists(atPath: file) && !file.lowercased().hasSuffix(".json")
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, head: head, frames: frames,
                               modelFile: isFile ? file : nil) { screen in
            try loader.scene(screen: screen)
        }
    }
}
