// TrackCommand — `splatframe track …`: head-track logs and sources from the command line.
import ArgumentParser

/// `splatframe track convert|filter|record|info`.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Convert, filter, record and inspect head-track logs.",
        subcommands: [TrackConvertCommand.self, TrackFilterCommand.self, TrackRecordCommand.self, TrackInfoCommand.self,
                      TrackWebcamCommand.self, TrackCalibrateCommand.self, TrackAccuracyCommand.self, TrackLatencyCommand.self, TrackLatencyReplayCommand.self])
}
