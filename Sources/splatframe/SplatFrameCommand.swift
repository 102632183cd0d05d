import ArgumentParser

/// The `splatframe` command line. With no subcommand it opens the parallax-cube room.
struct SplatFrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splatframe",
        abstract: "A head-tracked window into 3D, rendered on the CPU.",
        subcommands: [CubeCommand.self, OpenCommand.self, RenderCommand.self, FrustumCommand.self, BenchCommand.self,
                      InfoCommand.self, ConvertCommand.self, GenerateCommand.self, TrackCommand.self, ConfigCommand.self,
                      ExportCommand.self, CalibrateCommand.self, LibraryCommand.self, ControlsCommand.self, SetupCommand.self,
                      ImportModelCommand.self, CacheCommand.self],
        defaultSubcommand: CubeCommand.self)
}
