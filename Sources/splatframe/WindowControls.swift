// WindowControls — every key and mouse action of the window, in one list: the help overlay
// (`?`/F1), `--help` and the README are made from it.

enum WindowControls {
    /// (keys, what they do), in the order the help overlay shows them.
    static let all: [(keys: String, action: String)] = [
        ("Esc, q", "quit (Esc first closes the help or the screen calibration; in a scene opened from the library, returns there)"),
        ("F11, f", "fullscreen on/off"),
        ("h", "HUD on/off: frame time, head source and state, eye, latency, scene, stereo"),
        ("?, F1", "this help"),
        ("l", "scene library: thumbnails of the scene files; arrows and Enter or a click open one"),
        ("F12", "screenshot of the frame without the HUD (PNG in $XDG_PICTURES_DIR/splatframe, else here)"),
        ("F2", "screen calibration: match an ID-1 bank card's outline, Enter saves the screen size"),
        ("c", "camera inset: the webcam image with the face box, eyes and distance"),
        ("k", "calibrate the webcam: sit centred, eyes 0.6 m from the camera, for 3 s"),
        ("mouse", "moves your eye over the cursor's place on the screen (mouse head source)"),
        ("wheel", "eye distance (mouse head source); Ctrl+wheel zooms a model"),
        ("drop a file", "opens a scene file or SOG folder dropped on the window (loads in the background)"),
        ("drag", "orbit a model (right-drag pans)"),
        ("arrows", "rotate a model"),
        ("+, -", "zoom a model"),
        ("u", "cycle a model's up axis"),
        ("0", "reset the model's placement"),
        ("s", "save the model's placement next to its file"),
    ]

    /// The list as plain text lines (for `--help`).
    static var helpText: String {
        let width = all.map(\.keys.count).max() ?? 0
        return all.map { "  " + $0.keys.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.action }.joined(separator: "\n")
    }
}
