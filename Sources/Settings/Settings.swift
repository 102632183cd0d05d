// Settings — the user's config file and where each effective value came from.
//
// Job: read, validate and update `$XDG_CONFIG_HOME/splatframe/config.json` (`ConfigFile`), and
// name the origin of every effective value (`SettingOrigin`, `Resolved`).
// Contract: knows no screen, tracker or renderer types — each consumer (Viewer's viewing set-up,
// HeadTracking's resolver, the webcam tracker's calibration) resolves its own keys from the
// file with the precedence flag > config file > display > default. Never read by tests, `bench`
// or `export` unless a flag names the file (`ConfigFile.load(path:)` takes an explicit path).
