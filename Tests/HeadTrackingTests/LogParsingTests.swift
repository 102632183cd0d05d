// LogParsingTests — our CSV, TUM and opentrack logs; errors carry file and line numbers.
import Foundation
import TestSupport
import Testing
@testable import HeadTracking

@Suite struct LogParsingTests {
    @Test func readsOurFormatWithCommentsRotationAndConfidence() throws {
        let text = """
        # recorded somewhere
        t,x,y,z,yaw,pitch,roll,confidence

        0.0,0.01,0.02,0.6,10,0,0,1
        # a comment in the middle
        0.033,0.02,0.02,0.61,20,0,0,0.5
        """
        let log = try PoseLogReader().parse(text, file: "a.csv")
        #expect(log.format == .splatframe)
        #expect(log.samples.count == 2)
        #expect(log.hasRotation && log.hasConfidence)
        #expect(log.samples[1].position == Vec3d(0.02, 0.02, 0.61))
        #expect(abs(log.samples[1].rotation!.x - 20 * .pi / 180) < 1e-12)
        #expect(log.samples[1].confidence == 0.5)
    }

    @Test func strictErrorsNameFileAndLine() {
        let cases: [(String, Int)] = [
            ("t,x,y,z\n0,0,0,0.6\n0.1,0,zero,0.6\n", 3),          // not a number
            ("t,x,y,z\n0,0,0,0.6\n\n# c\n0.1,0,0\n", 5),         // too few fields
            ("t,x,y,z\n1,0,0,0.6\n0.5,0,0,0.6\n", 3),             // time goes backwards
            ("t,x,y,z,confidence\n0,0,0,0.6,2\n", 2),             // confidence out of range
            ("t,x,y,z\n0,0,0,nan\n", 2),                          // NaN
            ("time,a,b\n0,0,0\n", 1),                             // bad header
            ("0 1 2 3 0 0 0 1\n0.1 1 2 3 0 0 0\n", 2),            // TUM: 7 fields
        ]
        for (text, line) in cases {
            do {
                _ = try PoseLogReader().parse(text, file: "bad.csv")
                Issue.record("expected an error for \(text.debugDescription)")
            } catch let HeadTrackingError.badLine(file, l, _) {
                #expect(file == "bad.csv")
                #expect(l == line, "\(text.debugDescription)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func lenientSkipsAndCounts() throws {
        let text = "t,x,y,z\n0,0,0,0.6\ngarbage\n0.1,0,0,inf\n0.2,0,0,0.6,7\n0.3,0.1,0,0.6\n"
        let log = try PoseLogReader(lenient: true).parse(text)
        #expect(log.samples.count == 2)
        #expect(log.skippedLines == 3)
    }

    @Test func emptyOrAllBadIsAFileError() {
        #expect(throws: HeadTrackingError.self) { try PoseLogReader().parse("# nothing\n\n") }
        #expect(throws: HeadTrackingError.self) { try PoseLogReader(lenient: true).parse("t,x,y,z\nbad\n") }
        #expect(throws: HeadTrackingError.self) { try PoseLogReader().read(path: "/nonexistent/log.csv") }
    }

    /// Random text and randomly damaged logs (seeded: a failure reproduces) never crash the
    /// reader, and every answer keeps its contract: a log of finite samples in time order, no more
    /// samples than lines, confidences in 0…1 — or one HeadTrackingError, one line, naming a line
    /// that exists. Strict and lenient agree whenever strict accepts.
    @Test func garbageNeverCrashes() {
        var rng = SplitMix64(seed: 0x5EED_1065)
        let alphabet = Array("0123456789.,-e# \n\tnaif:xyzt")
        let valid = [
            "t,x,y,z,yaw,pitch,roll,confidence\n0,0.01,0.02,0.6,10,0,0,1\n0.033,0.02,0.02,0.61,20,0,0,0.5\n0.066,0.03,0.01,0.62,15,1,2,0.9\n",
            "# timestamp tx ty tz qx qy qz qw\n100.0 0.1 0.2 0.3 0 0 0 1\n100.5 0.2 0.2 0.3 0 0 0 1\n101 0.3 0.1 0.3 0 0 0 1\n",
            "dt,rawTX,rawTY,rawTZ,rawYaw,rawPitch,rawRoll\n0.01,10,5,-20,30,0,0\n0.02,12,5,-20,0,0,0\n0.01,11,4,-21,1,2,3\n",
        ]
        var accepted = 0, rejected = 0
        for k in 0..<400 {
            let text: String
            if k % 2 == 0 {
                text = String((0..<Int.random(in: 0..<300, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            } else {
                // A valid log with a few characters replaced, inserted or deleted.
                var chars = Array(valid[k / 2 % valid.count])
                for _ in 0..<Int.random(in: 0...4, using: &rng) where !chars.isEmpty {
                    let i = Int.random(in: 0..<chars.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: chars[i] = alphabet.randomElement(using: &rng)!
                    case 1: chars.insert(alphabet.randomElement(using: &rng)!, at: i)
                    default: chars.remove(at: i)
                    }
                }
                text = String(chars)
            }
            let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
            var strictLog: PoseLog?
            for lenient in [false, true] {
                let what = "\(lenient ? "lenient" : "strict") parse of \(text.debugDescription)"
                do {
                    let log = try PoseLogReader(lenient: lenient).parse(text)
                    #expect(!log.samples.isEmpty, "\(what)")
                    #expect(log.samples.count + log.skippedLines <= lineCount, "more samples than lines: \(what)")
                    #expect(lenient || log.skippedLines == 0, "\(what)")
                    for s in log.samples {
                        let finite = s.timestamp.isFinite && s.position.x.isFinite && s.position.y.isFinite && s.position.z.isFinite
                            && (s.rotation.map { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite } ?? true)
                        #expect(finite && (0...1).contains(s.confidence), "\(s) from \(what)")
                    }
                    for (a, b) in zip(log.samples, log.samples.dropFirst()) {
                        #expect(a.timestamp <= b.timestamp, "time goes backwards (\(a.timestamp) → \(b.timestamp)) in \(what)")
                    }
                    if lenient {
                        // Strict accepted: nothing was skipped, so lenient reads exactly the same log.
                        if let strictLog { #expect(log == strictLog, "\(what)") }
                    } else {
                        strictLog = log
                        accepted += 1
                    }
                } catch let error as HeadTrackingError {
                    let message = error.description
                    #expect(!message.isEmpty && !message.contains("\n"), "not one line: \(message.debugDescription) from \(what)")
                    switch error {
                    case let .badLine(file, line, _):
                        #expect(file == "<log>" && (1...lineCount).contains(line), "\(message) from \(what)")
                        #expect(message.hasPrefix("<log>:\(line): "), "\(message)")
                    case let .badFile(file, _):
                        #expect(file == "<log>", "\(message)")
                    default:
                        Issue.record("unexpected error \(message) from \(what)")
                    }
                    #expect(strictLog == nil, "lenient rejected what strict accepted: \(message) from \(what)")
                    if !lenient { rejected += 1 }
                } catch {
                    Issue.record("not a HeadTrackingError: \(error) from \(what)")
                }
            }
        }
        // The inputs exercise both outcomes (fixed by the seed).
        #expect(accepted > 0 && rejected > 0, "accepted \(accepted), rejected \(rejected)")
    }

    @Test func readsTUM() throws {
        let text = "# timestamp tx ty tz qx qy qz qw\n100.0 0.1 0.2 0.3 0 0 0 1\n100.5\t0.2 0.2 0.3 0 0 0 1\n"
        let log = try PoseLogReader().parse(text)
        #expect(log.format == .tum)
        #expect(log.samples.count == 2)
        #expect(log.duration == 0.5)
        #expect(log.startingAtZero().samples[1].timestamp == 0.5)
    }

    @Test func readsOpentrackCSV() throws {
        let groups = ["raw", "corrected", "filtered", "mapped"]
        let axes = ["TX", "TY", "TZ", "Yaw", "Pitch", "Roll"]
        let header = (["dt"] + groups.flatMap { g in axes.map { g + $0 } }).joined(separator: ",")
        func row(_ dt: Double, _ raw: [Double]) -> String {
            ([dt] + raw + Array(repeating: 0, count: 18)).map { "\($0)" }.joined(separator: ",")
        }
        let text = [header, row(0.01, [10, 5, -20, 30, 0, 0]), row(0.02, [12, 5, -20, 0, 0, 0])].joined(separator: "\n")
        let log = try PoseLogReader().parse(text)
        #expect(log.format == .opentrackCSV)
        #expect(log.samples.count == 2)
        #expect(abs(log.samples[1].timestamp - 0.03) < 1e-12)
        // cm → m, z negated (toward the camera = closer to the screen), no offset.
        #expect(abs(log.samples[0].position.x - 0.10) < 1e-12)
        #expect(abs(log.samples[0].position.z - 0.20) < 1e-12)
        #expect(abs(log.samples[0].rotation!.x - Double.pi / 6) < 1e-12)
        #expect(log.hasRotation)
    }

    @Test func writerRoundTrips() throws {
        let samples = (0..<5).map { PoseSample(timestamp: Double($0) / 30, position: Vec3d(0.01 * Double($0), -0.02, 0.6),
                                               rotation: Vec3d(0.1, 0.2, 0.3), confidence: 0.25 * Double($0 % 4)) }
        let log = PoseLog(samples: samples, hasRotation: true, hasConfidence: true)
        let back = try PoseLogReader().parse(PoseLogWriter.csv(log, comment: ["hello"]))
        #expect(back.samples.count == 5)
        for (a, b) in zip(log.samples, back.samples) {
            #expect(a.timestamp == b.timestamp && a.position == b.position && a.confidence == b.confidence)
            #expect(abs(a.rotation!.y - b.rotation!.y) < 1e-12)
        }
    }

    @Test func axesAndRecentre() throws {
        let m = try AxisMapping(parsing: "x,-z,y")
        #expect(m.apply(Vec3d(1, 2, 3)) == Vec3d(1, -3, 2))
        #expect(m.description == "x,-z,y")
        for bad in ["x,y", "x,x,y", "a,b,c", "x,y,z,x", ""] {
            #expect(throws: HeadTrackingError.self) { try AxisMapping(parsing: bad) }
        }
        let log = PoseLog(samples: [1.0, 2.0, 10.0].enumerated().map {
            PoseSample(timestamp: Double($0.offset), position: Vec3d($0.element, 0, 1))
        })
        let r = log.recentred()
        #expect(r.medianPosition == Vec3d(0, 0, 0.6))
        #expect(r.samples[2].position.x == 8)
    }
}
