// ConfigCommand — `splatframe config`: effective settings and where each came from.
import ArgumentParser
import HeadTracking

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the effective head-tracking settings and their sources (default / config file / flag / display).")

    @Option(help: "Config file (default $XDG_CONFIG_HOME/splatframe/config.json).") var config: String?
    @OptionGroup var head: HeadOptions

    func run() throws {
        let (_, s) = try head.effectiveSettings(configPath: config)
        print("config file: \(s.configPath)" + (s.configFound ? "" : " (not found; using defaults)"))
        let width = s.rows.map(\.name.count).max() ?? 0
        for r in s.rows {
            print(r.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + r.value + "  [" + r.origin.rawValue + "]")
        }
    }
}

import Foundation
