import Foundation
import TestSupport

/// The command-line fuzz's vocabulary: each command with the arguments that keep a valid run
/// short, and each option with the kind of value it takes; the hostile values of each kind; and
/// the files runs point at (missing, empty, a folder, random bytes under scene names, small
/// real ones).
struct FuzzCorpus {
    /// The kinds of value an option or argument takes.
    enum Kind: CaseIterable {
        case number, integer, count, vector, eye, size, screen, filter, head, axes, stereo, kernel, up, budget, sweep,
             detector, fit, scene, file, outFile, outDir, log, device, wall, folder, text, poseTarget
    }

    /// A command: its words, the base arguments that keep a valid run short, its positional
    /// arguments' kinds, and its options' kinds (a nil kind is a flag).
    struct Command {
        var words: [String]
        var base: [String] = []
        var positional: [Kind] = []
        var options: [(String, Kind?)]
    }

    let root: URL
    private let files: [String]
    private let logs: [String]
    /// Scenes named by URL, served on the loopback (a file, a 404, a redirect loop).
    private let server: LoopbackHTTPServer

    init() throws {
        let dir = TestData.temporaryDirectory()
        root = dir
        let fm = FileManager.default
        func write(_ name: String, _ bytes: [UInt8]) -> String {
            let p = dir.appendingPathComponent(name).path
            fm.createFile(atPath: p, contents: Data(bytes))
            return p
        }
        var rng = SplitMix64(seed: 7)
        func noise(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        server = try LoopbackHTTPServer()
        server.route("/noise.ply", .file(noise(300), etag: "\"n\"", lastModified: nil))
        server.route("/cube.json", .file(Array(#"{"type": "cube"}"#.utf8), etag: nil, lastModified: nil))
        server.route("/loop.spz", .redirect("/loop.spz"))
        let folder = dir.appendingPathComponent("folder.sog").path
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plyHeader = Array("ply\nformat binary_little_endian 1.0\nelement vertex 4294967295\nproperty float x\nend_header\n".utf8)
        let log = write("track.csv", Array("t,x,y,z\n0,0,0,0.6\n0.05,0.01,0,0.6\n0.1,0.02,0,0.59\n".utf8))
        files = [
            "/nonexistent/file.ply", "", folder, "/dev/null", "/",
            write("empty.ply", []), write("empty.spz", []), write("empty.json", []),
            write("noise.ply", noise(300)), write("noise.spz", noise(300)), write("noise.sog", noise(300)), write("noise.splat", noise(64)), write("noise.ksplat", noise(5200)),
            write("noise.png", noise(200)), write("noise.mp4", noise(500)), write("noise.obj", noise(200)), write("noise.stl", noise(300)),
            write("huge-count.ply", plyHeader + noise(40)),
            write("lod-meta.json", Array("{\"lodLevels\": 1e300, \"filenames\": [\"../../etc\"], \"tree\": {}}".utf8)),
            write("scene.json", Array("{\"type\": \"cube\", \"depth\": 1e300, \"walls\": {\"back\": \"/nonexistent.png\"}}".utf8)),
            write("mixed.json", Array("{\"type\": \"scene\", \"objects\": [{\"file\": \"noise.glb\", \"size\": 1e300}, {\"file\": \"generate:1e300k\"}, {\"file\": \"mixed.json\"}]}".utf8)),
            write("noise.glb", Array("glTF".utf8) + noise(300)), write("noise.gltf", noise(300)), write("noise.dae", Array("<COLLADA>".utf8) + noise(100)),
            write("camera.json", Array("{\"width\": 2147483648, \"height\": -1, \"view\": [], \"projection\": null}".utf8)),
            write("config.json", Array("{\"screenWidthMM\": \"nan\", \"head\": 5}".utf8)),
            TestData.projectRoot.appendingPathComponent("Scenes/cube.json").path,
            log,
        ]
        logs = [log, write("bad.csv", Array("t,x,y,z\n0,nan,1e300,x\n".utf8)), write("tum.txt", Array("# tum\n1 2 3\n".utf8))]
    }

    /// A scratch folder of run `i` (its marker and stderr files).
    func scratch(_ i: Int) -> URL {
        let u = root.appendingPathComponent("run\(i % 2)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    /// Values that are wrong for almost every option.
    static let hostile = ["nan", "NaN", "inf", "-inf", "1e300", "-1e300", "2147483648", "-2147483649", "9223372036854775808",
                          "-1", "0", "", " ", "abc", "1,2", "1,2,3,4", "0x0", "1e-300", "é", "--", "-"]

    /// Values of `kind`: `valid` ones a command accepts (so a run gets past the argument parser
    /// into `run()`), else hostile ones and odd ones that look almost right.
    func values(_ kind: Kind, valid: Bool) -> [String] {
        let hostile = Self.hostile
        let tmp = { (name: String) in self.root.appendingPathComponent(name).path }
        switch (kind, valid) {
        case (.number, true): return ["1", "0.5", "0.1"]
        case (.number, false): return hostile
        case (.integer, true): return ["1", "2", "3"]
        case (.integer, false): return hostile
        case (.count, true): return ["1k", "10", "1.5k"]
        case (.count, false): return hostile + ["2147483648", "4294967296", "infk", "1e300k", "-5k"]
        case (.vector, true): return ["1,1,1", "0.5,1,2"]
        case (.vector, false): return hostile + ["nan,0,1", "1e300,0,1", "0,0,inf"]
        case (.eye, true): return ["0,0,0.6", "0.1,0.05,0.5", "0,0,100", "-0.05,0,0.6", "-0.1,-0.05,0.4"]
        case (.eye, false): return hostile + ["0,0,-1", "0,0,1e300", "0,0,0", "0,0,nan", "-0.05,0,-0.6", "0,0,100.5", "-101,0,0.6"]
        case (.size, true): return ["32x18", "16x16", "40x20"]
        case (.size, false): return hostile + ["0x0", "16384x16384", "99999x99999", "-5x3", "2147483648x1", "32x", "x18"]
        case (.screen, true): return ["600,340", "300x200"]
        case (.screen, false): return hostile + ["nan,3", "1e300,1", "-5,3", "5,3"]
        case (.filter, true): return ["none", "ema", "ema:0.5", "oneeuro:1,0,1"]
        case (.filter, false): return hostile + ["ema:9", "ema:nan", "oneeuro:1,2", "oneeuro:nan,0,1"]
        case (.head, true): return ["fixed:0,0,0.6", "fixed:-0.05,0,0.6", "replay:\(logs[0])", "udp:127.0.0.1:47999", "mouse"]
        case (.head, false): return hostile + ["fixed:nan,0,1", "fixed:0,0,-0.6", "fixed:0,0,101", "replay:/nonexistent", "replay:", "udp:99999", "udp:1.2.3",
                                               "webcam:7", "webcam:1e300", "video:", "video:/nonexistent", "replay:\(logs[1])",
                                               "webcam:http://127.0.0.1:9/stream.mjpg", "webcam:http://", "webcam:gopher://127.0.0.1/"]
        case (.axes, true): return ["x,y,z", "x,-z,y", "-x,y,z"]
        case (.axes, false): return hostile + ["x,x,x", "q,r,s"]
        case (.stereo, true): return ["anaglyph", "sbs", "hsbs"]
        case (.stereo, false): return hostile + ["3d"]
        case (.kernel, true): return ["lanes8", "blocks"]
        case (.kernel, false): return hostile + ["avx9000"]
        case (.up, true): return ["y", "-y", "z"]
        case (.up, false): return hostile + ["w"]
        case (.budget, true): return ["none", "150k", "10"]
        case (.budget, false): return hostile + ["1e300k", "-5"]
        case (.sweep, true): return ["splats=1k", "size=16x9,32x18", "threads=1,2", "kernel=lanes8,blocks"]
        case (.sweep, false): return hostile + ["splats=1e400k", "size=0x0", "threads=0", "kernel=x", "x=1", "splats="]
        case (.detector, true): return ["haar", "mediapipe", "blazeface", "landmarker"]
        case (.detector, false): return hostile + ["x"]
        case (.poseTarget, true): return ["udp", "udp:127.0.0.1:4299", "udp:4298"]
        case (.poseTarget, false): return hostile + ["udp:0.0.0.0", "udp:99999", "tcp:4242", "udp:127.0.0.1:0"]
        case (.fit, true): return ["ipd", "focal"]
        case (.fit, false): return hostile + ["x"]
        case (.text, true): return ["object", "room"]
        case (.text, false): return hostile + ["x"]
        case (.scene, true): return ["cube", "generate:200", "sphere:100", TestData.projectRoot.appendingPathComponent("Scenes/cube.json").path,
                                     server.url("/cube.json")]
        case (.scene, false): return ["generate:infk", "generate:1e300k", "generate:nan", "generate:-5", "generate:", "generate:2147483648",
                                      "sphere:1e300", "sphere:-1", "sphere:x"] + files + urls
        case (.file, _), (.folder, _): return files + urls
        case (.wall, _): return files
        case (.log, true): return [logs[0]]
        case (.log, false): return logs + files
        case (.outFile, true): return [tmp("out.png"), tmp("out.ply"), tmp("out.spz"), tmp("out.splat"), tmp("out.csv")]
        case (.outFile, false): return [tmp("out.xyz"), "/nonexistent/dir/out.png", "", "/", "/dev/null", tmp("folder.sog")]
        case (.outDir, true): return [tmp("frames")]
        case (.outDir, false): return ["/nonexistent/dir", "", "/dev/null", tmp("out.mp4"), tmp("empty.ply")]
        case (.device, true): return ["7", "999", "/dev/video42", "http://127.0.0.1:9/stream.mjpg", "rtsp://127.0.0.1:9/live"]
        case (.device, false): return hostile + ["1000", "/dev/videox", "http://", "ftp://127.0.0.1/x", "http://127.0.0.1:0/", "http://127.0.0.1:9/a b"]
        }
    }

    /// Loopback URLs only: served, missing, a redirect loop, a closed port, plain http refused, malformed.
    var urls: [String] {
        [server.url("/noise.ply"), server.url("/missing.spz"), server.url("/loop.spz"), "https://127.0.0.1:9/x.ply",
         "http://127.0.0.1:0/", "https://127.0.0.1:9/%zz", "https://"]
    }

    /// Window options shared by cube, open, library and calibrate.
    static let windowOptions: [(String, Kind?)] = [
        ("--size", .size), ("--threads", .integer), ("--stats-every", .number), ("--stereo", .stereo), ("--ipd", .number),
        ("--screen-mm", .screen), ("--config", .file), ("--fullscreen", nil),
    ]
    static let headOptions: [(String, Kind?)] = [
        ("--head", .head), ("--eye", .eye), ("--filter", .filter), ("--predict", .number), ("--movement-scale", .number),
        ("--axis-strength", .vector), ("--record", .outFile), ("--speed", .number), ("--axes", .axes), ("--loop", nil), ("--lenient", nil),
        ("--detector", .detector), ("--send-pose", .poseTarget),
    ]
    static let roomOptions: [(String, Kind?)] = [
        ("--back", .wall), ("--left", .wall), ("--top", .wall), ("--depth", .number), ("--no-targets", nil),
    ]
    static let modelOptions: [(String, Kind?)] = [
        ("--up", .up), ("--room", nil), ("--cull", nil), ("--two-sided", nil), ("--splat-budget", .budget), ("--lod", .integer), ("--no-antialias", nil),
        ("--lod-cache", .outDir), ("--lod-cache-limit-mb", .integer),
    ] + Self.downloadOptions
    static let downloadOptions: [(String, Kind?)] = [("--allow-http", nil), ("--max-download-mb", .integer), ("--download-cache", .outDir),
                                                          ("--download-cache-limit-mb", .integer)]

    /// Every command the fuzz drives.
    func commands() -> [Command] {
        let out = root.appendingPathComponent("out.png").path
        return [
            Command(words: ["render"], base: ["--eye", "0,0,0.6", "--size", "32x18", "--out", out], positional: [.scene],
                    options: [("--eye", .eye), ("--camera", .file), ("--size", .size), ("--threads", .integer), ("--screen-mm", .screen),
                              ("--depth-out", .outFile), ("--stereo", .stereo), ("--ipd", .number), ("--config", .file), ("--out", .outFile)]
                    + Self.roomOptions + Self.modelOptions),
            Command(words: ["bench"], base: ["--frames", "2", "--warmup", "0", "--size", "32x18"], positional: [.scene],
                    options: [("--track", .log), ("--camera", .file), ("--size", .size), ("--frames", .integer), ("--warmup", .integer),
                              ("--threads", .integer), ("--repeat", .integer), ("--json", .outFile), ("--compare", .file),
                              ("--blend-kernel", .kernel), ("--sweep", .sweep), ("--path-rate", .number), ("--screen-mm", .screen),
                              ("--movement-scale", .number), ("--filter", .filter), ("--axes", .axes), ("--splat-budget", .budget),
                              ("--lod", .integer), ("--lod-cache", .outDir), ("--csv", .outFile), ("--two-sided", nil), ("--predict", .number),
                              ("--recenter", nil), ("--out", .outFile)] + Self.roomOptions),
            Command(words: ["export"], base: ["--track", logs[0], "--out", root.appendingPathComponent("frames").path, "--size", "32x18",
                                              "--max-frames", "2", "--quiet"], positional: [.scene],
                    options: [("--fps", .number), ("--size", .size), ("--threads", .integer), ("--max-frames", .integer), ("--track", .log),
                              ("--out", .outDir), ("--filter", .filter), ("--predict", .number), ("--recenter", nil), ("--screen-mm", .screen),
                              ("--axes", .axes), ("--movement-scale", .number), ("--config", .file), ("--splat-budget", .budget), ("--lod", .integer),
                              ("--lod-cache", .outDir)]
                    + Self.roomOptions),
            Command(words: ["info"], positional: [.file], options: [("--json", nil)] + Self.downloadOptions),
            // The output positional or --out (both at once: an error), as a run draws them.
            Command(words: ["convert"], positional: [.file, .outFile],
                    options: [("--out", .outFile), ("--spz-version", .integer), ("--antialiased", nil), ("--spz", nil), ("--lod-levels", .integer)]),
            Command(words: ["generate"], positional: [.count, .outFile],
                    options: [("--out", .outFile), ("--seed", .integer), ("--scene", .text), ("--sh-degree", .integer)]),
            Command(words: ["frustum"], base: ["--eye", "0,0,0.6"],
                    options: [("--eye", .eye), ("--screen-mm", .screen), ("--near", .number), ("--far", .number)]),
            Command(words: ["config"], options: [("--config", .file), ("--screen-mm", .screen)] + Self.headOptions),
            Command(words: ["track", "info"], positional: [.log], options: [("--lenient", nil)]),
            Command(words: ["track", "convert"], positional: [.log, .outFile],
                    options: [("--out", .outFile), ("--recenter", nil), ("--axes", .axes), ("--lenient", nil)]),
            Command(words: ["track", "filter"], base: ["--out", root.appendingPathComponent("filtered.csv").path], positional: [.log],
                    options: [("--filter", .filter), ("--predict", .number), ("--noise", .number), ("--seed", .integer), ("--lenient", nil),
                              ("--out", .outFile)]),
            Command(words: ["track", "record"], base: ["--duration", "0.05", "--out", root.appendingPathComponent("rec.csv").path],
                    options: [("--head", .head), ("--rate", .number), ("--duration", .number), ("--filter", .filter), ("--speed", .number),
                              ("--axes", .axes), ("--loop", nil), ("--config", .file), ("--out", .outFile)]),
            Command(words: ["track", "webcam"], base: ["--frames", "2", "--stats"],
                    options: [("--device", .device), ("--video", .file), ("--frames", .integer), ("--detector", .detector),
                              ("--filter", .filter), ("--out", .outFile), ("--models", .folder), ("--send-pose", .poseTarget)]),
            Command(words: ["track", "calibrate"], base: ["--seconds", "0.5", "--dry-run"],
                    options: [("--device", .device), ("--video", .file), ("--distance", .number), ("--seconds", .number), ("--fit", .fit),
                              ("--detector", .detector), ("--config", .file)]),
            Command(words: ["cube"], options: Self.windowOptions + Self.headOptions + Self.roomOptions + Self.downloadOptions),
            Command(words: ["open"], positional: [.scene], options: Self.windowOptions + Self.headOptions + Self.modelOptions + Self.roomOptions),
            Command(words: ["library"], positional: [.folder],
                    options: Self.windowOptions + Self.headOptions + Self.modelOptions + [("--thumbnail-size", .size)]),
            Command(words: ["calibrate"], options: Self.windowOptions),
        ]
    }

    /// The words of every command that takes `option` (with its base arguments).
    static func commandsTaking(_ option: String) -> [[String]] {
        guard let c = try? FuzzCorpus() else { return [] }
        return c.commands().filter { $0.options.contains { $0.0 == option } }.map { $0.words + $0.base }
    }

    /// One value of `kind`: a valid one, or else — three times in four — one of the values made for
    /// this kind (malformed names, overflowing counts: where crashes hide), else any hostile one.
    func value(_ kind: Kind, valid: Bool, _ rng: inout SplitMix64) -> String {
        var v = values(kind, valid: valid)
        if !valid, rng.next() % 4 != 0 {
            let special = v.filter { !Self.hostile.contains($0) && !files.contains($0) }
            if !special.isEmpty { v = special }
        }
        return v[Int(rng.next() % UInt64(v.count))]
    }

    /// One run's command (for the summary) and arguments: the base arguments, each positional
    /// argument (sometimes left out), and one to three options, each with a drawn value (values
    /// that start with `-` among them) after it or attached with `=`.
    func draw(_ rng: inout SplitMix64) -> (String, [String]) {
        let all = commands()
        let c = all[Int(rng.next() % UInt64(all.count))]
        // The value slots of this run: positional arguments (sometimes left out) and one to three options.
        var slots: [(name: String?, kind: Kind?)] = []
        for kind in c.positional where rng.next() % 8 != 0 { slots.append((nil, kind)) }
        for _ in 0..<(1 + Int(rng.next() % 3)) where !c.options.isEmpty {
            let (name, kind) = c.options[Int(rng.next() % UInt64(c.options.count))]
            slots.append((name, kind))
        }
        // Half the runs take valid values only (they reach run(): files, devices, the display); the
        // other half make one value hostile and keep the rest valid, so the hostile one is what
        // the command meets — in its argument parsing or, past it, in run().
        let valued = slots.indices.filter { slots[$0].kind != nil }
        let hostile = rng.next() % 2 == 0 && !valued.isEmpty ? valued[Int(rng.next() % UInt64(valued.count))] : -1
        var args = c.words + c.base
        for (i, slot) in slots.enumerated() {
            switch (slot.name, slot.kind) {
            // An option's value is the next word (`--eye -0.05,0,0.6`) or, one time in four, attached (`--eye=-0.05,0,0.6`).
            case let (name?, kind?) where rng.next() % 4 == 0: args.append(name + "=" + value(kind, valid: i != hostile, &rng))
            case let (name?, kind?): args += [name, value(kind, valid: i != hostile, &rng)]
            case let (name?, nil): args.append(name)
            case let (nil, kind?): args.append(value(kind, valid: i != hostile, &rng))
            case (nil, nil): break
            }
        }
        return (c.words.joined(separator: " "), args)
    }
}
