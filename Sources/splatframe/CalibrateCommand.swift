// CalibrateCommand — `splatframe calibrate`: the screen's physical size from a bank card.
import ArgumentParser
import HeadTracking
import Foundation
import Viewer

/// Opens a full-screen card outline (ISO/IEC 7810 ID-1, 85.60 × 53.98 mm); the user holds a
/// bank card against the screen and resizes the outline until it matches; Enter saves
/// `screenWidthMM`/`screenHeightMM` to the config file (`F2` does the same in any window).
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure the screen with a bank card: resize an ID-1 card outline to match a real card; Enter saves the size.",
        discussion: "Arrows or the mouse wheel resize the outline (Shift: finely); Enter saves the screen's width and height in mm to the config file (--config, else $XDG_CONFIG_HOME/splatframe/config.json); Esc cancels. `splatframe config` then shows the screen's source as the config file.")

    @OptionGroup var configOption: ConfigOption
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var windowOptions: WindowOptions

    func run() throws {
        var head = HeadTrackingOptions()
        head.eye = Vec3d(0, 0, 0.6)
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, configOption: configOption, head: head,
                               modelFile: nil, calibrationOnly: true) { screen, _ in
            MeshScene(room: try SceneDescription().room(screen: screen))
        }
    }
}
