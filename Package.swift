// swift-tools-version:6.0
// SplatFrame: a head-tracked "window into 3D" viewer with CPU renderers.
// Module graph (dependencies point one way, top to bottom):
//   RenderCore, Workers, JSONInput ← Settings; RenderCore, Workers, Settings ← ImageIO, TriangleRaster, SplatRender, SceneIO, HeadTracking, Procedural
//     (ZipReading ← SceneIO, WebcamTracking: read-only ZIP archives)
//     (SceneIO, SplatRender ← SplatLOD: level of detail — trees built and cached, streamed and selected under a budget)
//     (Downloads ← Viewer: scenes opened from a URL)
//     (SceneIO ← AssimpImport: glTF/FBX/COLLADA/3DS in the importer child process, linked only by splatframe)
//     (SplatRenderAVX512 ← SplatRender: one kernel compiled again for AVX-512)
//     (RenderCore, Workers ← Reprojection: the timewarp, called by whoever presents; warpbench times it)
//     ← Media ← WebcamTracking;  Media ← Viewer ← Bench, Export, Library ← splatframe
// Libraries speak in values: their errors name no command-line flag (splatframe's ErrorWording
// words them with its flags), and the executable gives SceneIO its importer child's command.
import Foundation
import PackageDescription

/// Hot loops are written for 8-wide SIMD; the default x86-64 baseline (SSE2) halves their
/// speed (../shared/design/PERFORMANCE.md). The default build is portable: every module
/// targets `haswell` (any x86-64-v3 CPU: AVX2 + FMA, Intel since 2013, AMD since 2015), and
/// SplatRenderAVX512 alone is compiled for `skylake-avx512` (Intel Skylake-SP on, AMD Zen 4
/// on); the renderer calls it only where cpuid reports AVX-512 (SplatRender's CPUDispatch).
/// SPLATFRAME_TARGET_CPU=CPU compiles every module for CPU instead, for comparison: `haswell`
/// gives a binary with no AVX-512 code at all, `native` one tuned for (and only for) the
/// machine that builds it. Rebuild from clean (`rm -rf .build`) after changing it.
#if arch(x86_64)
let chosenCPU = ProcessInfo.processInfo.environment["SPLATFRAME_TARGET_CPU"].flatMap { $0.isEmpty ? nil : $0 }
let simdFlags: [SwiftSetting] = [.unsafeFlags(["-target-cpu", chosenCPU ?? "haswell"])]
let avx512Flags: [SwiftSetting] = [.unsafeFlags(["-target-cpu", chosenCPU ?? "skylake-avx512"])]
/// The start-up check that the CPU can run the build (CSIMD.c), for builds of a known baseline.
let cpuCheck: [CSetting] = chosenCPU == nil || chosenCPU == "haswell" ? [.define("CSIMD_REQUIRE_X86_64_V3")] : []
#else
let simdFlags: [SwiftSetting] = []
let avx512Flags: [SwiftSetting] = []
let cpuCheck: [CSetting] = []
#endif
let fast: [SwiftSetting] = simdFlags + [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
let fastAVX512: [SwiftSetting] = avx512Flags + [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
/// Optimised in debug builds too, for modules whose work the tests run at full size: unoptimised
/// `SIMD8` code runs lane by lane through generic calls, and the level-of-detail builder's
/// pictures (`LevelErrors`) then made the debug test run 2.5× longer.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

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
        // glTF, FBX, COLLADA and 3DS: Assimp, used only by the importer child process (AssimpImport).
        .systemLibrary(name: "CAssimp", pkgConfig: "assimp", providers: [.apt(["libassimp-dev"])]),

        // The webcam's native layer: capture (V4L2 / video files) and face detection (MediaPipe
        // BlazeFace loaded with dlopen, OpenCV Haar cascades) behind a C API (C++ inside).
        .target(name: "CWebcam",
                cxxSettings: [.unsafeFlags(["-isystem", "/usr/include/opencv4", "-std=c++17", "-O2"])],
                linkerSettings: [.linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                                 .linkedLibrary("opencv_imgcodecs"), .linkedLibrary("opencv_videoio"),
                                 .linkedLibrary("opencv_objdetect"), .linkedLibrary("dl"), .linkedLibrary("stdc++")]),

        // libcurl's easy interface with one plain wrapper per option type (its setopt is variadic).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // Counts heap allocations (interposes malloc & co.) for the bench's bytes-per-frame figure.
        .target(name: "CAllocationCounter"),

        .target(name: "RenderCore", swiftSettings: fast),
        // Every thread the program starts (BackgroundThread, the renderers' WorkerPool) and their one lock kind.
        .target(name: "Workers"),
        // Reading JSON documents with errors that name the key path.
        .target(name: "JSONInput"),
        .target(name: "Settings", dependencies: ["JSONInput"]),
        .target(name: "ImageIO", dependencies: ["RenderCore", "CPNG", "CTurboJPEG"]),
        .target(name: "CSIMD", cSettings: cpuCheck),
        .target(name: "TriangleRaster", dependencies: ["RenderCore", "Workers", "CSIMD"], swiftSettings: fast),
        // The block blend kernel compiled again for AVX-512 (its sources are SplatRender's: Shared/ links them).
        .target(name: "SplatRenderAVX512", dependencies: ["RenderCore", "CSIMD"], swiftSettings: fastAVX512),
        .target(name: "SplatRender", dependencies: ["RenderCore", "Workers", "CSIMD", "SplatRenderAVX512"], swiftSettings: fast),
        // Read-only ZIP archives (libzip): bundled SOGs, MediaPipe's model bundle.
        .target(name: "ZipReading", dependencies: ["CZip"]),
        // SceneIO writes bundled SOGs with libzip itself (CZip); it reads them through ZipReading.
        .target(name: "SceneIO", dependencies: ["RenderCore", "JSONInput", "ImageIO", "Workers", "ZipReading", "CZlib", "CZstd", "CWebP", "CZip"], swiftSettings: fast),
        // Level of detail, in one home: a plain capture's tree built (merges, level errors) and cached,
        // and a streamed SOG drawn under a budget — the selection, the chunk store, the streaming and
        // the frame's assembly, behind `SplatLevelsOfDetail` (the tree's file is SceneIO's StreamedSOG).
        .target(name: "SplatLOD", dependencies: ["RenderCore", "SceneIO", "SplatRender", "Workers"], swiftSettings: fast + optimisedInDebug),
        // Scenes posted online: one HTTPS file into a cache keyed by its URL (revalidated, resumable, bounded).
        .target(name: "Downloads", dependencies: ["CCurl", "RenderCore"]),
        // The importer child process's work (`splatframe import-model`): Assimp → SceneIO's ImportedModel.
        .target(name: "AssimpImport", dependencies: ["RenderCore", "SceneIO", "CAssimp"]),
        .target(name: "HeadTracking", dependencies: ["RenderCore", "Settings", "Workers"]),
        .target(name: "Procedural", dependencies: ["RenderCore"], swiftSettings: fast),
        // Late reprojection: a rendered frame (colour + depth) warped to the newest eye before presenting.
        .target(name: "Reprojection", dependencies: ["RenderCore", "Workers", "CSIMD"], swiftSettings: fast + optimisedInDebug),
        // Pictures and videos: camera and file capture, video textures for walls, wall files.
        .target(name: "Media", dependencies: ["RenderCore", "ImageIO", "Workers", "CWebcam"]),
        .target(name: "WebcamTracking", dependencies: ["HeadTracking", "RenderCore", "Settings", "Media", "ZipReading", "Workers", "CWebcam"]),
        // A textured head rendered as a webcam sees it, with known eye points: the tracker's accuracy run.
        .target(name: "HeadRig", dependencies: ["WebcamTracking", "Media", "RenderCore", "TriangleRaster", "ImageIO", "Procedural", "Workers"]),
        .target(name: "Viewer",
                dependencies: ["RenderCore", "JSONInput", "ImageIO", "TriangleRaster", "SplatRender", "SceneIO", "SplatLOD", "Downloads",
                               "HeadTracking", "Settings", "Procedural", "Media", "Workers", "ZipReading"],
                swiftSettings: fast),
        // Motion-to-photon latency against ground truth: the rendered head as a live camera, through the
        // program's own path (webcam source → tracker → frame driver → present), scored frame by frame.
        .target(name: "LatencyRig", dependencies: ["HeadRig", "WebcamTracking", "HeadTracking", "Media", "Viewer", "RenderCore", "Reprojection"]),
        // Headless frame-time measurement; a replay rendered to frames; the scene library's files and thumbnails.
        .target(name: "Bench", dependencies: ["Viewer", "SplatLOD", "RenderCore", "SplatRender", "HeadTracking", "Settings", "Workers", "CAllocationCounter"],
                swiftSettings: fast),
        .target(name: "Export", dependencies: ["Viewer", "RenderCore", "ImageIO", "HeadTracking", "Settings", "Workers"]),
        .target(name: "Library", dependencies: ["Viewer", "RenderCore", "ImageIO", "SceneIO", "Workers", "Downloads", "JSONInput"]),
        .executableTarget(name: "splatframe",
                          dependencies: ["Viewer", "Bench", "LatencyRig", "Reprojection", "Export", "Library", "SceneIO", "SplatLOD", "AssimpImport", "Downloads", "HeadTracking", "WebcamTracking", "HeadRig", "Media", "Workers", "Settings", "CSDL2", "CSDL2TTF", "CFontconfig",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: simdFlags),

        // The timewarp's timing and image figures, and what splat depth costs (release build).
        .executableTarget(name: "warpbench", dependencies: ["Reprojection", "Viewer", "SplatRender", "Procedural", "RenderCore", "Workers", "ImageIO"],
                          path: "Sources/WarpBench", swiftSettings: simdFlags),

        // Slow, obvious reference implementations and image comparison for tests.
        .target(name: "TestSupport", dependencies: ["RenderCore", "ImageIO", "Workers"], swiftSettings: simdFlags),

        .testTarget(name: "RenderCoreTests", dependencies: ["RenderCore", "TestSupport"]),
        .testTarget(name: "JSONInputTests", dependencies: ["JSONInput"]),
        .testTarget(name: "WorkersTests", dependencies: ["Workers", "TestSupport"]),
        .testTarget(name: "DownloadsTests", dependencies: ["Downloads", "TestSupport"]),
        .testTarget(name: "TriangleRasterTests", dependencies: ["TriangleRaster", "Procedural", "TestSupport"],
                    swiftSettings: simdFlags),
        .testTarget(name: "SplatRenderTests", dependencies: ["SplatRender", "CSIMD", "SceneIO", "Procedural", "TestSupport"],
                    swiftSettings: simdFlags),
        .testTarget(name: "ZipReadingTests", dependencies: ["ZipReading", "CZip", "TestSupport"]),
        .testTarget(name: "SceneIOTests", dependencies: ["SceneIO", "TestSupport", "CWebP", "CZip"]),
        .testTarget(name: "SplatLODTests", dependencies: ["SplatLOD", "SceneIO", "SplatRender", "RenderCore", "TestSupport"]),
        .testTarget(name: "WebcamTrackingTests", dependencies: ["WebcamTracking", "HeadRig", "Media", "HeadTracking", "RenderCore", "TestSupport"]),
        .testTarget(name: "LatencyRigTests", dependencies: ["LatencyRig", "HeadRig", "WebcamTracking", "Media", "HeadTracking", "Viewer", "Reprojection", "RenderCore", "TestSupport"]),
        .testTarget(name: "HeadTrackingTests", dependencies: ["HeadTracking", "Settings", "TestSupport"]),
        .testTarget(name: "ViewerTests", dependencies: ["Viewer", "CZip", "Workers", "SplatLOD", "TriangleRaster", "SplatRender", "Bench", "Export", "Library", "SceneIO", "Procedural", "Settings", "HeadTracking", "ImageIO", "Media", "TestSupport"], exclude: ["Goldens"],
                    swiftSettings: simdFlags),
        .testTarget(name: "BenchTests", dependencies: ["Viewer", "Bench", "Export", "HeadTracking", "Settings", "TestSupport"], exclude: ["Fixtures"],
                    swiftSettings: simdFlags),
        .testTarget(name: "ReprojectionTests", dependencies: ["Reprojection", "Viewer", "SplatRender", "Procedural", "RenderCore", "TestSupport"],
                    swiftSettings: simdFlags),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "ImageIO", "Workers"]),
        .testTarget(name: "DocumentationTests"),
    ],
    swiftLanguageModes: [.v6]
)
