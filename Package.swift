// swift-tools-version:6.0
// SplatFrame: a head-tracked "window into 3D" viewer with CPU renderers.
// Module graph (dependencies point one way, top to bottom):
//   RenderCore, Workers, JSONInput ← Settings; RenderCore, Workers, Settings ← ImageIO, TriangleRaster, SplatRender, SceneIO, HeadTracking, Procedural
//     ← Media ← WebcamTracking;  Media ← Viewer ← Bench, Export, Library ← splatframe
import Foundation
import PackageDescription

/// Hot loops are written for 8-wide SIMD; the default x86-64 baseline (SSE2) halves their
/// speed (../shared/design/PERFORMANCE.md), so x86_64 builds target the CPU they are built on
/// (`native`: AVX-512 where the machine has it — on this project's Zen 4 machine the splat
/// blend is ~10 % faster than with AVX2, and the images are byte-identical). To build a
/// binary for other machines, set SPLATFRAME_TARGET_CPU (e.g. `haswell`: any AVX2 + FMA CPU)
/// and rebuild from clean (`rm -rf .build`).
#if arch(x86_64)
let targetCPU = ProcessInfo.processInfo.environment["SPLATFRAME_TARGET_CPU"] ?? "native"
let simdFlags: [SwiftSetting] = [.unsafeFlags(["-target-cpu", targetCPU])]
#else
let simdFlags: [SwiftSetting] = []
#endif
let fast: [SwiftSetting] = simdFlags + [.unsafeFlags(["-enforce-exclusivity=unchecked"])]

let package = Package(
    name: "SplatFrame",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "splatframe", targets: ["splatframe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries (Debian -dev packages, found through pkg-config). Only the executable links SDL2.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2TTF", pkgConfig: "SDL2_ttf", providers: [.apt(["libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // PNG and JPEG for ImageIO, so that nothing below the executable links SDL.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // WebP images and the ZIP container of PlayCanvas SOG.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),

        // The webcam's native layer: capture (V4L2 / video files) and face detection (MediaPipe
        // BlazeFace loaded with dlopen, OpenCV Haar cascades) behind a C API (C++ inside).
        .target(name: "CWebcam",
                cxxSettings: [.unsafeFlags(["-isystem", "/usr/include/opencv4", "-std=c++17", "-O2"])],
                linkerSettings: [.linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                                 .linkedLibrary("opencv_imgcodecs"), .linkedLibrary("opencv_videoio"),
                                 .linkedLibrary("opencv_objdetect"), .linkedLibrary("dl"), .linkedLibrary("stdc++")]),

        // Counts heap allocations (interposes malloc & co.) for the bench's bytes-per-frame figure.
        .target(name: "CAllocationCounter"),

        .target(name: "RenderCore", swiftSettings: fast),
        // Every thread the program starts (BackgroundThread, the renderers' WorkerPool) and their one lock kind.
        .target(name: "Workers"),
        // Reading JSON documents with errors that name the key path.
        .target(name: "JSONInput"),
        .target(name: "Settings", dependencies: ["JSONInput"]),
        .target(name: "ImageIO", dependencies: ["RenderCore", "CPNG", "CTurboJPEG"]),
        .target(name: "CSIMD"),
        .target(name: "TriangleRaster", dependencies: ["RenderCore", "Workers", "CSIMD"], swiftSettings: fast),
        .target(name: "SplatRender", dependencies: ["RenderCore", "Workers", "CSIMD"], swiftSettings: fast),
        .target(name: "SceneIO", dependencies: ["RenderCore", "JSONInput", "ImageIO", "CZlib", "CZstd", "CWebP", "CZip"], swiftSettings: fast),
        .target(name: "HeadTracking", dependencies: ["RenderCore", "Settings", "Workers"]),
        .target(name: "Procedural", dependencies: ["RenderCore"], swiftSettings: fast),
        // Pictures and videos: camera and file capture, video textures for walls, wall files.
        .target(name: "Media", dependencies: ["RenderCore", "ImageIO", "Workers", "CWebcam"]),
        .target(name: "WebcamTracking", dependencies: ["HeadTracking", "RenderCore", "Settings", "Media", "SceneIO", "Workers", "CWebcam"]),
        // A textured head rendered as a webcam sees it, with known eye points: the tracker's accuracy run.
        .target(name: "HeadRig", dependencies: ["WebcamTracking", "Media", "RenderCore", "TriangleRaster", "ImageIO", "Procedural"]),
        .target(name: "Viewer",
                dependencies: ["RenderCore", "JSONInput", "ImageIO", "TriangleRaster", "SplatRender", "SceneIO",
                               "HeadTracking", "Settings", "Procedural", "Media", "Workers"],
                swiftSettings: fast),
        // Headless frame-time measurement; a replay rendered to frames; the scene library's files and thumbnails.
        .target(name: "Bench", dependencies: ["Viewer", "RenderCore", "SplatRender", "HeadTracking", "Settings", "Workers", "CAllocationCounter"],
                swiftSettings: fast),
        .target(name: "Export", dependencies: ["Viewer", "RenderCore", "ImageIO", "HeadTracking", "Settings", "Workers"]),
        .target(name: "Library", dependencies: ["Viewer", "RenderCore", "ImageIO", "SceneIO", "Workers"]),
        .executableTarget(name: "splatframe",
                          dependencies: ["Viewer", "Bench", "Export", "Library", "SceneIO", "HeadTracking", "WebcamTracking", "HeadRig", "Media", "Workers", "Settings", "CSDL2", "CSDL2TTF", "CFontconfig",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: simdFlags),

        // Slow, obvious reference implementations and image comparison for tests.
        .target(name: "TestSupport", dependencies: ["RenderCore", "ImageIO"], swiftSettings: simdFlags),

        .testTarget(name: "RenderCoreTests", dependencies: ["RenderCore", "TestSupport"]),
        .testTarget(name: "JSONInputTests", dependencies: ["JSONInput"]),
        .testTarget(name: "TriangleRasterTests", dependencies: ["TriangleRaster", "Procedural", "TestSupport"],
                    swiftSettings: simdFlags),
        .testTarget(name: "SplatRenderTests", dependencies: ["SplatRender", "SceneIO", "Procedural", "TestSupport"],
                    swiftSettings: simdFlags),
        .testTarget(name: "SceneIOTests", dependencies: ["SceneIO", "TestSupport", "CWebP", "CZip"]),
        .testTarget(name: "WebcamTrackingTests", dependencies: ["WebcamTracking", "HeadRig", "Media", "HeadTracking", "RenderCore", "TestSupport"]),
        .testTarget(name: "HeadTrackingTests", dependencies: ["HeadTracking", "Settings", "TestSupport"]),
        .testTarget(name: "ViewerTests", dependencies: ["Viewer", "Bench", "Export", "Library", "SceneIO", "Procedural", "Settings", "HeadTracking", "ImageIO", "Media", "TestSupport"], exclude: ["Goldens"],
                    swiftSettings: simdFlags),
        .testTarget(name: "BenchTests", dependencies: ["Viewer", "Bench", "Export", "HeadTracking", "Settings", "TestSupport"], exclude: ["Fixtures"],
                    swiftSettings: simdFlags),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "ImageIO"]),
        .testTarget(name: "DocumentationTests"),
    ],
    swiftLanguageModes: [.v6]
)
