// OutputPath — one output convention: every command that writes a file names it with `--out`;
// the commands that took it as a positional argument (`generate N OUT`, `convert IN OUT`,
// `track convert IN OUT`) still do. Naming it both ways, or neither, is a one-line error. (The
// hidden `import-model --output OUT FILE` keeps its own contract with its parent process.)
enum OutputPath {
    /// The one output `--out` or the positional `name` gives; checked in the command's `validate()`.
    static func resolve(out: String?, positional: String?, name: String) throws -> String {
        switch (out, positional) {
        case let (o?, p?): throw OptionError("--out", "", "the output is named twice, by --out (\(o)) and by the positional \(name) (\(p)); give one of them")
        case let (o?, nil): return o
        case let (nil, p?): return p
        case (nil, nil): throw OptionError("--out", "", "missing: name the output file with --out \(name) (or as the positional \(name))")
        }
    }
}
