// SplatLODTests — the out-of-core build: a capture split into several regions under a small
// bound writes exactly the tree the in-memory build writes (every file byte for byte, and the
// same pictures from two cameras); an interrupted build resumes without redoing its finished
// regions; the on-disk median agrees with a sort when it has to refine; the PLY stream reads
// what the whole-file reader reads.
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
import Testing
import TestSupport

struct OutOfCoreBuilderTests {
    /// A capture written as a binary PLY (SH 1), and its path.
    static func capture(_ n: Int, in dir: URL) throws -> (SplatCloud, String) {
        let path = dir.appendingPathComponent("capture.ply").path
        let written = LODBuilderTests.cloud(n, degree: 1, seed: 7)
        try GaussianPLYWriter.write(written, to: path)
        let (scene, _) = try SceneFile.loadWithInfo(path: path)
        guard case .splats(let cloud) = scene else { throw LODBuildError.cancelled }
        return (cloud, path)
    }

    /// The in-memory build of `cloud` with the options `convert` takes, written to `folder`.
    static func inMemory(_ cloud: SplatCloud, chunkSplats: Int, to folder: String,
                         chunkOptions: SOGWriter.Options = SOGWriter.Options()) throws {
        let options = CaptureLOD.buildOptions(splats: cloud.count, chunkSplats: chunkSplats)
        try StreamedSOGWriter.write(try LODBuilder.build(cloud, options: options), to: folder + "/lod-meta.json", chunkSplats: chunkSplats,
                                    options: chunkOptions)
    }

    /// Every file under `folder` with its bytes.
    static func files(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for rel in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + rel, isDirectory: &isDir), !isDir.boolValue {
                out[rel] = FileManager.default.contents(atPath: folder + "/" + rel)
            }
        }
        return out
    }

    /// Level `level` of a streamed SOG drawn by the reference renderer from `camera`.
    static func picture(_ metaPath: String, level: Int, camera: Camera) throws -> [UInt32] {
        let sog = try StreamedSOG.open(metaPath)
        var cloud = SplatCloud(shDegree: 1)
        for (k, c) in sog.chunks.enumerated() where c.level == level { cloud.append(contentsOf: try sog.loadChunk(k)) }
        let fb = ReferenceSplatRenderer.render(cloud, camera: camera)
        return Array(UnsafeBufferPointer(start: fb.color, count: fb.width * fb.height))
    }

    static func camera(eye: Vec3) -> Camera {
        Camera(width: 96, height: 72, view: Matrix4.lookAt(eye: eye, target: Vec3(0, 0, 0), up: Vec3(0, 1, 0)),
               projection: Matrix4.perspective(fovY: 50 * .pi / 180, aspect: 96 / 72, near: 0.05, far: 50), background: Vec3(0.1, 0.2, 0.3))
    }

    static func options(regionSplats: Int = 5000) -> OutOfCoreBuilder.Options {
        var o = OutOfCoreBuilder.Options()
        o.chunkSplats = 4096; o.regionSplats = regionSplats; o.threads = 2
        return o
    }

    @Test("a capture built in several regions writes the in-memory build's tree, byte for byte")
    func sameTree() throws {
        let dir = TestData.temporaryDirectory("ooc")
        let (cloud, path) = try Self.capture(30_000, in: dir)
        try Self.inMemory(cloud, chunkSplats: 4096, to: dir.path + "/memory")
        let result = try OutOfCoreBuilder.build(input: path, output: dir.path + "/disk/lod-meta.json", options: Self.options())
        #expect(result.regions == 8 && result.regionsBuilt == 8 && result.streamedInput)
        let memory = try Self.files(dir.path + "/memory"), disk = try Self.files(dir.path + "/disk")
        #expect(memory.count > 10 && memory.keys.sorted() == disk.keys.sorted())
        for (name, bytes) in memory { #expect(disk[name] == bytes, "\(name) differs") }
        // The working folder is gone once the tree is in place.
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/.disk.lod-build"))
        // The same pictures, finest and a coarse level, from two cameras.
        for eye in [Vec3(0.3, 0.8, 3.5), Vec3(-2.5, 0.5, 0.4)] {
            for level in [0, 2] {
                let a = try Self.picture(dir.path + "/memory/lod-meta.json", level: level, camera: Self.camera(eye: eye))
                let b = try Self.picture(dir.path + "/disk/lod-meta.json", level: level, camera: Self.camera(eye: eye))
                #expect(a == b && Set(a).count > 20)
            }
        }
    }

    @Test("an interrupted build resumes from its finished regions and writes the same tree")
    func resumes() throws {
        let dir = TestData.temporaryDirectory("ooc")
        let (cloud, path) = try Self.capture(20_000, in: dir)
        try Self.inMemory(cloud, chunkSplats: 4096, to: dir.path + "/memory")
        let output = dir.path + "/disk/lod-meta.json"
        // Stop once 3 regions are finished.
        let finished = RegionCount()
        #expect(throws: LODBuildError.cancelled) {
            _ = try OutOfCoreBuilder.build(input: path, output: output, options: Self.options(), cancelled: { finished.value >= 3 },
                                           progress: { p in if p.phase == .building { finished.raise(to: p.regionsDone) } })
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/.disk.lod-build/r00.built"))
        let result = try OutOfCoreBuilder.build(input: path, output: output, options: Self.options())
        #expect(result.regions == 4 && result.regionsReused == 3 && result.regionsBuilt == 1)
        let memory = try Self.files(dir.path + "/memory"), disk = try Self.files(dir.path + "/disk")
        #expect(memory.keys.sorted() == disk.keys.sorted())
        for (name, bytes) in memory { #expect(disk[name] == bytes, "\(name) differs") }
        // Other options start afresh rather than mixing two builds.
        var other = Self.options(regionSplats: 12_000)
        other.chunkSplats = 4096
        let again = try OutOfCoreBuilder.build(input: path, output: output, options: other)
        #expect(again.regionsReused == 0 && again.regions == 2)
    }

    @Test("the median on disk is the sort's, also when the bucket holding it must be refined")
    func median() throws {
        let dir = TestData.temporaryDirectory("ooc")
        let records = SplatRecords(shDegree: 0)
        // Many equal coordinates (ties broken by index) and a few distinct ones.
        var cloud = SplatCloud(shDegree: 0)
        for i in 0..<5000 {
            let x: Float = i % 3 == 0 ? 0.25 : (i % 3 == 1 ? -0.0 : Float(i) * 0.001)
            cloud.append(position: Vec3(x, 0, 0), scale: Vec3(1, 1, 1), rotation: Quaternion(w: 1, x: 0, y: 0, z: 0), opacity: 1, dc: Vec3(0, 0, 0))
        }
        let writer = try RecordFileWriter(dir.path + "/r.rec")
        try writer.append(cloud, records: records) { UInt32(4999 - $0) }
        try writer.finish()
        let order = (0..<5000).sorted { (cloud.positions[$0].x, 4999 - $0) < (cloud.positions[$1].x, 4999 - $1) }
        for limit in [1, 1 << 22] {
            var partition = DiskPartition(folder: dir.path, records: records, regionSplats: 100, cancelled: nil)
            partition.gatherLimit = limit
            for rank in [0, 1, 2500, 4999] {
                let key = try partition.median(dir.path + "/r.rec", axis: 0, rank: rank)
                #expect(UInt32(truncatingIfNeeded: key) == UInt32(4999 - order[rank]))
            }
        }
    }

    @Test("the PLY stream hands out, block by block, exactly what the whole-file reader reads")
    func plyStream() throws {
        let dir = TestData.temporaryDirectory("ooc")
        let (cloud, path) = try Self.capture(2_500, in: dir)
        let stream = try #require(try PLYSplatStream.open(path))
        #expect(stream.count == 2_500 && stream.shDegree == 1 && stream.isBounded)
        var got = SplatCloud(shDegree: 1)
        while let block = try stream.next(maxSplats: 1000) { got.append(contentsOf: block) }
        #expect(got.positions == cloud.positions && got.scales == cloud.scales && got.rotations == cloud.rotations)
        #expect(got.opacities == cloud.opacities && got.dc == cloud.dc && got.shRest == cloud.shRest)
        // A file it does not take (here an ASCII PLY) is read whole.
        #expect(try PLYSplatStream.open(Self.asciiPLY(in: dir)) == nil)
    }

    static func asciiPLY(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("ascii.ply").path
        let text = """
        ply
        format ascii 1.0
        element vertex 1
        property float x
        property float y
        property float z
        property float f_dc_0
        property float f_dc_1
        property float f_dc_2
        property float opacity
        property float scale_0
        property float scale_1
        property float scale_2
        property float rot_0
        property float rot_1
        property float rot_2
        property float rot_3
        end_header
        0 0 0 0 0 0 1 -3 -3 -3 1 0 0 0

        """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Regions finished, as the build's progress reports them (from its worker threads).
final class RegionCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func raise(to n: Int) { lock.withLock { count = max(count, n) } }
}
