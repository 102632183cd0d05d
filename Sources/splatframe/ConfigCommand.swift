// ConfigCommand — `splatframe config`: effective settings and where each came from.
import ArgumentParser
import HeadTracking
import Settings
import Viewer

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the effective viewing and head-tracking settings and their sources (default / config file / flag / display).")

    @OptionGroup var configOption: ConfigOption
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var head: HeadOptions

    func run() throws {
        let (file, path) = try configOption.interactive()
        let options = head.resolved
        let setup = ViewingSetup.resolve(screenFlag: screenOptions.flag(), movementScaleFlag: options.movementScale, config: file)
        let tracking = try SettingsResolver.resolve(config: file, configPath: path, flags: options, geometry: setup.trackingGeometry)
        print("config file: \(path)" + (file == nil ? " (not found; using defaults)" : ""))
        let rows = setup.rows + tracking.rows
        let width = rows.map(\.name.count).max() ?? 0
        for r in rows {
            print(r.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + r.value + "  [" + r.origin.rawValue + "]")
        }
        if setup.screen.origin == .default {
            print("(the window uses the display's physical size from SDL when the config file has none)")
        }
    }
}
