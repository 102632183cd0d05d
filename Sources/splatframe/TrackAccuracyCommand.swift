// TrackAccuracyCommand — `splatframe track accuracy`: the webcam tracker against a rendered head
// whose eye points are known (HeadRig), as a table.
import ArgumentParser
import Foundation
import HeadRig
import ImageIO
import RenderCore
import WebcamTracking

struct TrackAccuracyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "Score the webcam tracker against a rendered head with known eye points (turning, nodding, moving).",
        discussion: """
        MediaPipe's canonical face, textured from the face in --face by its own landmarks, is rendered by \
        SplatFrame's rasterizer as a 640x480 webcam with a 60° horizontal field of view sees it, 2 cm above \
        the screen's centre: still, turning ±35°, nodding ±20°, and moving ±10 cm and 0.45–0.75 m turned 15°, \
        each frame with its own camera noise. The raw eye points are scored after one distance calibration \
        on the still frames. Processing times are the tracker's own (run it under taskset -c 0 for one core).
        """)

    @OptionGroup var rigHead: RigHeadOptions
    @Option(parsing: .unconditional, help: "Camera noise: standard deviation in levels, 0…50.", transform: Checked.number(in: 0...50, "levels"))
    var noise: Double = 3
    @Option(parsing: .unconditional, help: "Seed of the noise.", transform: Checked.integer(in: 0...Int(Int32.max), "seed")) var seed: Int = 1
    @Option(help: "Write every frame (PNG) and the true eye points (truth.csv) to this folder.") var frames: String?
    @Option(name: .customLong("per-frame"), help: "Write each frame's true and measured eye midpoint and angles to this CSV.")
    var perFrame: String?

    func run() throws {
        let (camera, head, pipeline) = try rigHead.make()
        var truth = "frame,t,segment,right_x,right_y,right_z,left_x,left_y,left_z,yaw,pitch,roll\n"
        if let frames { try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true) }
        let result = try TrackerAccuracy.measure(head: head, camera: camera, pipeline: pipeline, path: HeadMotion.frames(),
                                                 noise: noise, seed: UInt64(seed)) { frame, f in
            guard let frames else { return }
            let r = f.placement.rightEye, l = f.placement.leftEye
            truth += "\(frame.index),\(f.time),\(f.segment.rawValue),\(r.x),\(r.y),\(r.z),\(l.x),\(l.y),\(l.z),"
                + "\(f.placement.yaw * 180 / .pi),\(f.placement.pitch * 180 / .pi),\(f.placement.roll * 180 / .pi)\n"
            let rgba = (0..<frame.width * frame.height).map { i -> UInt32 in
                UInt32(frame.pixels[3 * i]) | UInt32(frame.pixels[3 * i + 1]) << 8 | UInt32(frame.pixels[3 * i + 2]) << 16 | 0xff00_0000
            }
            try ImageFile.savePNG(RGBAImage(width: frame.width, height: frame.height, pixels: rgba),
                                  to: (frames as NSString).appendingPathComponent(String(format: "frame%04d.png", frame.index)))
        }
        if let frames { try truth.write(toFile: (frames as NSString).appendingPathComponent("truth.csv"), atomically: true, encoding: .utf8) }
        if let perFrame { try result.perFrame.write(toFile: perFrame, atomically: true, encoding: .utf8) }
        print(result.table, terminator: "")
    }
}
