import ArgumentParser
import Foundation
import RenderCore
import Viewer

/// `splatframe open FILE`: a scene file (`Scenes/*.json`), mesh or splat file in the window.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open a scene, mesh or splat file in a window.",
                                                    discussion: "Window controls:\n" + WindowControls.helpText)

    @Argument(help: "Scene JSON, mesh (PLY/OBJ/STL), splat file (PLY/.splat/.spz/compressed PLY), generate:N or sphere:N.")
    var file: String
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var head: HeadOptions
    @Option(help: .hidden) var frames: Int?

    /// Files larger than this load inside the window, with a progress bar.
    static let windowLoadBytes = 32 << 20

    func run() throws {
        try Self.openWindow(file: file, options: try model.options(), screenOptions: screenOptions, configOption: configOption,
                            windowOptions: windowOptions, head: head, frames: frames)
    }

    /// Opens `file` in the head-tracked window and runs it until the user quits (`open FILE`,
    /// and the library's choice). `announce` prints "splatframe: opened FILE" once the scene is built.
    static func openWindow(file: String, options: SceneLoader.ModelOptions, screenOptions: ScreenOptions, configOption: ConfigOption,
                           windowOptions: WindowOptions, head: HeadOptions, frames: Int?, announce: Bool = false) throws {
        let isFile = FileManager.default.fileExists(atPath: file) && !SceneLoader.isSceneDescription(file)
        // Small files are read before the window opens, so their errors come first; large ones load
        // inside the window with a progress bar (and the terminal's progress line).
        let large = isFile && ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > Self.windowLoadBytes
        let early = large ? nil : try SceneLoader(path: file, options: options, progress: LoadProgress.reporter(for: file))
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, configOption: configOption, head: head, frames: frames,
                               modelFile: isFile ? file : nil, dropOptions: options) { screen, windowProgress in
            let terminal = LoadProgress.reporter(for: file)
            let loader = try early ?? SceneLoader(path: file, options: options) { done, total in
                terminal?(done, total)
                windowProgress(done, total)
            }
            for w in loader.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
            let scene = try loader.scene(screen: screen)
            if announce { FileHandle.standardError.write(Data("splatframe: opened \(file)\n".utf8)) }
            return scene
        }
    }
}
