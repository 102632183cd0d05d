import ArgumentParser
import Downloads
import Foundation
import HeadTracking
import RenderCore
import Viewer
import Workers

/// `splatframe open FILE`: a scene file (`Scenes/*.json`), mesh or splat file in the window.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open a scene, mesh or splat file in a window.",
                                                    discussion: "Window controls:\n" + KeyBindings.helpText)

    @Argument(help: "Scene JSON, mesh (PLY/OBJ/STL), splat file (PLY/.splat/.spz/compressed PLY, SOG, streamed SOG), generate:N, sphere:N or cube.",
              transform: SceneArgument.parse)
    var scene: SceneSource
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var lod: LODOptionGroup
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var room: RoomOptions
    @OptionGroup var head: HeadOptions

    /// Files larger than this load inside the window, with a progress bar.
    static let windowLoadBytes = 32 << 20

    func validate() throws { _ = try room.room(for: scene) }

    func run() throws {
        var options = model.options(lod: lod, window: true, config: configOption.fileIfValid)
        options.cubeRoom = try room.room(for: scene)
        try Self.openWindow(scene, options: options, screenOptions: screenOptions, configOption: configOption,
                            windowOptions: windowOptions, head: head.resolved)
    }

    /// Opens `source` in the head-tracked window and runs it until the user quits (`open FILE`).
    static func openWindow(_ source: SceneSource, options: SceneLoader.ModelOptions, screenOptions: ScreenOptions, configOption: ConfigOption,
                           windowOptions: WindowOptions, head: HeadTrackingOptions) throws {
        let file = source.description
        // Small files are read before the window opens, so their errors come first; large ones load
        // inside the window with a progress bar (and the terminal's progress line).
        // A URL downloads inside the window too (its progress bar), from the cache when it can.
        let large = source.modelFile.map { (RegularFile.bytes($0) ?? 0) > Self.windowLoadBytes }
            ?? (source.path != nil && Downloader.isURL(file))
        let early = large ? nil : try SceneLoader.load(source: source, options: options, progress: LoadProgress.reporter(for: file))
        // A large plain capture is drawn whole while its levels of detail are built (`levelsJob`).
        let job = Locked<LevelOfDetailJob?>(nil)
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, configOption: configOption, head: head,
                               modelFile: source.modelFile, dropOptions: options, levelsJob: { job.withLock { $0 } }) { screen, windowProgress in
            let terminal = LoadProgress.reporter(for: file)
            let loader = try early ?? SceneLoader.load(source: source, options: options) { done, total in
                terminal?(done, total)
                windowProgress(done, total)
            }
            for w in loader.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
            job.withLock { $0 = loader.levelOfDetailJob(screen: screen) }
            if loader.levelsFrom == .cache {
                FileHandle.standardError.write(Data("splatframe: levels of detail for \(file) from the cache (\(options.lod.treeCache?.folder ?? ""))\n".utf8))
            }
            return try loader.scene(screen: screen)
        }
    }
}
