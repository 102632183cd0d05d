import ArgumentParser

/// The `splatframe` command line.
struct SplatFrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splatframe",
        abstract: "A head-tracked window into 3D, rendered on the CPU.",
        subcommands: [InfoCommand.self, ConvertCommand.self, GenerateCommand.self, SplatBenchCommand.self])
}
