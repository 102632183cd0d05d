// SceneIOTests — shared helpers: loading from paths or literal bytes, unwrapping scene kinds.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

/// Gives SceneIO the importer child the executable gives it at start-up: the built
/// `splatframe import-model` (beside the test runner or under `.build`). Without a built
/// executable the imports fail with SceneIO's one-line error, and so do the tests that need them.
func useBuiltImporter() {
    guard let executable = BinaryLocator.splatframe() else { return }
    ModelImporterProcess.command = ModelImporterCommand(executable: executable, arguments: ["import-model"])
}

/// Loads a file under ../shared/testdata.
func loadTestFile(_ relative: String) throws -> LoadedScene {
    try SceneFile.load(path: TestData.path(relative))
}

/// Loads literal bytes as a file called `name` (the extension is the format hint).
func loadBytes(_ bytes: [UInt8], _ name: String) throws -> LoadedScene {
    try SceneFile.load(data: Data(bytes), name: name)
}

/// Loads literal text as a file called `name`.
func loadText(_ text: String, _ name: String) throws -> LoadedScene { try loadBytes(Array(text.utf8), name) }

func mesh(_ s: LoadedScene) -> TriangleMesh? { if case .mesh(let m) = s { return m }; return nil }
func splats(_ s: LoadedScene) -> SplatCloud? { if case .splats(let c) = s { return c }; return nil }
func points(_ s: LoadedScene) -> PointCloud? { if case .points(let p) = s { return p }; return nil }

/// Max absolute component difference.
func maxDiff(_ a: Vec3, _ b: Vec3) -> Float { let d = a - b; return max(abs(d.x), abs(d.y), abs(d.z)) }

/// Angle between two rotations, radians.
func angle(_ a: Quaternion, _ b: Quaternion) -> Float {
    let d = abs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z)
    return 2 * acosf(min(1, d))
}

/// The error a load throws (nil if it doesn't throw a SceneIOError).
func loadError(_ bytes: [UInt8], _ name: String) -> SceneIOError? {
    do { _ = try loadBytes(bytes, name); return nil } catch let e as SceneIOError { return e } catch { return nil }
}

/// Little-endian bytes of values.
func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
func le(_ v: Float) -> [UInt8] { le(v.bitPattern) }

/// A synthetic cloud with every attribute varying (deterministic).
func syntheticCloud(count n: Int, degree: Int, seed: UInt64 = 1) -> SplatCloud {
    var rng = seed
    func rnd() -> Float { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Float(rng >> 40) / Float(1 << 24) }
    var c = SplatCloud(shDegree: degree)
    c.reserveCapacity(n)
    let restN = SplatCloud.restCount(degree: degree) * 3
    for _ in 0..<n {
        c.append(position: Vec3(rnd() * 10 - 5, rnd() * 10 - 5, rnd() * 10 - 5),
                 scale: Vec3(rnd() * 0.1 + 0.001, rnd() * 0.1 + 0.001, rnd() * 0.1 + 0.001),
                 rotation: Quaternion(w: rnd() - 0.5, x: rnd() - 0.5, y: rnd() - 0.5, z: rnd() - 0.5).normalized,
                 opacity: rnd() * 0.98 + 0.01, dc: Vec3(rnd() * 4 - 2, rnd() * 4 - 2, rnd() * 4 - 2),
                 rest: (0..<restN).map { _ in rnd() - 0.5 })
    }
    return c
}
