// SpecAndConfigTests — --head parsing, the config file and where settings come from.
import Foundation
import Testing
import RenderCore
import Settings
@testable import HeadTracking

@Suite struct SpecAndConfigTests {
    @Test func headSourceSpecs() throws {
        #expect(try HeadSourceSpec(parsing: "mouse") == .mouse)
        #expect(try HeadSourceSpec(parsing: "udp") == .udp(host: "127.0.0.1", port: 4242))
        #expect(try HeadSourceSpec(parsing: "udp:0.0.0.0") == .udp(host: "0.0.0.0", port: 4242))
        #expect(try HeadSourceSpec(parsing: "udp:5000") == .udp(host: "127.0.0.1", port: 5000))
        #expect(try HeadSourceSpec(parsing: "udp:192.168.1.2:4243") == .udp(host: "192.168.1.2", port: 4243))
        #expect(try HeadSourceSpec(parsing: "replay:/tmp/a:b.csv") == .replay(path: "/tmp/a:b.csv"))
        #expect(try HeadSourceSpec(parsing: "fixed:0,0.1,0.7") == .fixed(Vec3d(0, 0.1, 0.7)))
        #expect(try HeadSourceSpec(parsing: "webcam") == .webcam(device: nil))
        for bad in ["", "udp:0", "udp:70000", "udp:1.2.3:80", "udp:a:b:c", "replay:", "fixed:1,2", "kinect"] {
            #expect(throws: HeadTrackingError.self, "\(bad)") { try HeadSourceSpec(parsing: bad) }
        }
    }

    @Test func webcamIsRecognisedButNotAvailable() throws {
        let settings = try SettingsResolver.resolve(config: nil, configPath: "-", flags: HeadTrackingOptions())
        #expect(throws: HeadTrackingError.cameraSourceUnavailable(source: .webcam(device: nil))) {
            try HeadSourceFactory.make(.webcam(device: nil), settings: settings)
        }
        // The value, not a flag: the executable words the remedy with its own options.
        let text = HeadTrackingError.cameraSourceUnavailable(source: .video(path: "a.mp4")).description
        #expect(text.hasPrefix("video:a.mp4 head tracking is not available") && !text.contains("--"), "\(text)")
        #expect(try HeadSourceSpec(parsing: "video:/tmp/a.avi") == .video(path: "/tmp/a.avi"))
        #expect(HeadSourceSpec.video(path: "x.mp4").isCamera && !HeadSourceSpec.mouse.isCamera)
    }

    @Test func resolverPrecedenceAndOrigins() throws {
        var config = ConfigFile()
        config.filter = "ema:0.5"; config.predictMs = 20; config.cameraPositionMM = [0, 180, 0]
        var flags = HeadTrackingOptions()
        flags.filter = FilterSpec.none
        let geometry = TrackingGeometry(screen: ScreenGeometry(width: 0.5, height: 0.3), movementScale: 1.5)
        let s = try SettingsResolver.resolve(config: config, configPath: "c.json", flags: flags, geometry: geometry)
        #expect(s.filter == Resolved(FilterSpec.none, .flag))
        #expect(s.predictMs == Resolved(20, .configFile))
        #expect(s.trackerSettings.movementScale == 1.5)
        #expect(s.head == Resolved(HeadSourceSpec.mouse, .default))
        #expect(abs(s.cameraPosition.value.y - 0.18) < 1e-12)
        let d = try SettingsResolver.resolve(config: nil, configPath: "c.json", flags: HeadTrackingOptions(), geometry: geometry)
        #expect(d.filter == Resolved(FilterSpec.default, .default))
        #expect(abs(d.cameraPosition.value.y - 0.17) < 1e-6, "default camera: centred 2 cm above the top edge")
        #expect(d.rows.count == 8)
        var eye = HeadTrackingOptions(); eye.eye = Vec3d(0, 0, 1); eye.head = .mouse
        #expect(try SettingsResolver.resolve(config: nil, configPath: "", flags: eye).head.value == .fixed(Vec3d(0, 0, 1)))
        var bad = ConfigFile(); bad.filter = "particle"
        #expect(throws: HeadTrackingError.self) { try SettingsResolver.resolve(config: bad, configPath: "c.json", flags: HeadTrackingOptions()) }
        // A config's fixed eye follows the command line's eye rule.
        for text in ["fixed:0,0,-0.6", "fixed:0,0,0", "fixed:0,0,101", "fixed:200,0,0.6"] {
            var behind = ConfigFile(); behind.head = text
            #expect(throws: HeadTrackingError.self, "\(text)") { try SettingsResolver.resolve(config: behind, configPath: "c.json", flags: HeadTrackingOptions()) }
        }
        var fine = ConfigFile(); fine.head = "fixed:-0.05,0,0.6"
        #expect(try SettingsResolver.resolve(config: fine, configPath: "c.json", flags: HeadTrackingOptions()).head.value == .fixed(Vec3d(-0.05, 0, 0.6)))
    }

    @Test func configFileLoadingAndErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("config.json").path
        #expect(try ConfigFile.load(path: path) == nil)
        try #"{"screenWidthMM": 597, "filter": "oneeuro:1,0,1", "opentrackAxes": "x,y,-z", "downloadCacheLimitMB": 512}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let c = try #require(try ConfigFile.load(path: path))
        #expect(c.screenWidthMM == 597 && c.filter == "oneeuro:1,0,1" && c.downloadCacheLimitMB == 512)
        for (bad, says) in [(#"{"screenWidthMM": -1}"#, "screenWidthMM must be > 0"),
                            (#"{"screenWidthMM": "wide"}"#, "screenWidthMM: expected a finite number, found the string \"wide\""),
                            ("{", "expected valid JSON"), (#"{"axisStrength": [1,2]}"#, "axisStrength: expected 3 numbers, found an array of 2"),
                            (#"{"neutralEyeMM": [0, true, 600]}"#, "neutralEyeMM[1]: expected a finite number, found true"),
                            (#"{"cameraFovDeg": 200}"#, "cameraFovDeg must be 5…170"), ("[1]", "expected an object"),
                            (#"{"downloadCacheLimitMB": 0}"#, "downloadCacheLimitMB must be a whole number of megabytes"),
                            (#"{"downloadCacheLimitMB": 1.5}"#, "downloadCacheLimitMB must be a whole number of megabytes")] {
            try bad.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try ConfigFile.load(path: path)
                Issue.record("accepted \(bad)")
            } catch let e as SettingsError {
                #expect("\(e)".hasPrefix(path + ": invalid config: ") && "\(e)".contains(says), "\(e)")
            }
        }
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x"]) == "/x/splatframe/config.json")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/splatframe/config.json")
        // update keeps unknown keys and the others
        try #"{"screenWidthMM": 597, "futureKey": [1, 2]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        try ConfigFile.update(path: path, ["ipdMM": 61.5])
        let updated = try #require(try ConfigFile.load(path: path))
        #expect(updated.ipdMM == 61.5 && updated.screenWidthMM == 597)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains("futureKey"))
    }
}

@Suite struct SessionTests {
    @Test func replaySessionIsDeterministicAndRecords() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ses-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let logPath = dir.appendingPathComponent("in.csv").path
        try "t,x,y,z\n0,0,0,0.6\n1,0.1,0,0.6\n".write(toFile: logPath, atomically: true, encoding: .utf8)
        var o = HeadTrackingOptions()
        o.head = .replay(path: logPath); o.recordPath = dir.appendingPathComponent("rec.csv").path
        o.filter = FilterSpec.none
        let session = try HeadTrackingSession(options: o)
        #expect(session.settings.head.origin == .flag)
        var last = session.pose(atFrameTime: 0)
        for k in 1...60 { last = session.pose(atFrameTime: Double(k) / 60) }
        session.stop()
        #expect(last.state == .tracking)
        #expect(abs(last.position.x - 0.1) < 1e-9)
        let rec = try PoseLogReader().read(path: o.recordPath!)
        #expect(rec.samples.count == 61)
        #expect(session.recordError == nil)
    }
}
