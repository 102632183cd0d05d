// ControlsCommand — `splatframe controls [--markdown]`: the window's keys and mouse, printed from
// the one key-binding table (README's controls table is this output; a test compares them).
import ArgumentParser

struct ControlsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls", abstract: "Print the window's keys and mouse controls.")

    @Flag(help: "As README's Markdown table.") var markdown = false

    func run() {
        print(markdown ? KeyBindings.markdown : KeyBindings.helpText)
    }
}
