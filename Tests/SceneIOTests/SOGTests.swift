// SceneIOTests — PlayCanvas SOG: tiny hand-built v1/v2 scenes (lossless WebP through libwebp,
// ZIP through libzip, and folders) decoded against values worked out from the spec
// (../shared/design/FORMATS.md); hostile input; the real files in ../shared/testdata.
import CWebP
import CZip
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

// MARK: - Building SOGs by hand

/// Encodes RGBA bytes as a lossless WebP. (libwebp's simple lossless API is not "exact": it may
/// rewrite the RGB of texels whose alpha is 0, so the fixtures keep alpha > 0.)
func webpLossless(width: Int, height: Int, _ rgba: [UInt8]) -> [UInt8] {
    precondition(rgba.count == width * height * 4)
    var out: UnsafeMutablePointer<UInt8>? = nil
    let n = rgba.withUnsafeBufferPointer { WebPEncodeLosslessRGBA($0.baseAddress, Int32(width), Int32(height), Int32(width * 4), &out) }
    defer { WebPFree(out) }
    guard let out, n > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: out, count: n))
}

/// A ZIP archive written by libzip, entries stored or deflated.
func zipArchive(_ entries: [(String, [UInt8])], deflate: Bool) throws -> [UInt8] {
    let dir = TestData.temporaryDirectory("sog-zip")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("a.zip").path
    var err: Int32 = 0
    let za = try #require(zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err))
    for (name, bytes) in entries {
        // libzip frees the copy (freep = 1); an empty entry needs no buffer at all.
        var copy: UnsafeMutableRawPointer? = nil
        if !bytes.isEmpty {
            copy = try #require(malloc(bytes.count))
            bytes.withUnsafeBytes { copy!.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        }
        let src = try #require(zip_source_buffer(za, copy, UInt64(bytes.count), copy == nil ? 0 : 1))
        let index = zip_file_add(za, name, src, ZIP_FL_OVERWRITE)
        #expect(index >= 0)
        #expect(zip_set_file_compression(za, UInt64(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) == 0)
    }
    #expect(zip_close(za) == 0)
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// A SOG as files: `meta.json` text plus images by name.
struct HandSOG {
    var meta: String
    var files: [String: [UInt8]]

    /// All members, meta.json first.
    var entries: [(String, [UInt8])] { [("meta.json", Array(meta.utf8))] + files.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    func zip(deflate: Bool = false) throws -> [UInt8] { try zipArchive(entries, deflate: deflate) }

    /// Writes the members into a fresh folder; returns its path.
    func folder() throws -> String {
        let dir = TestData.temporaryDirectory("sog-folder")
        for (name, bytes) in entries { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        return dir.path
    }

    /// Replaces the top-level count (v2).
    func withCount(_ text: String) -> HandSOG { editing("\"count\":3,\"asset\"", "\"count\":\(text),\"asset\"") }

    /// Replaces text in meta.json.
    func editing(_ from: String, _ to: String) -> HandSOG {
        var c = self; c.meta = meta.replacingOccurrences(of: from, with: to); return c
    }
}

/// Three splats in 2×2 images (one spare texel), encoded by hand per the spec.
enum Fixture {
    static let count = 3
    // Positions: 16-bit values per axis; means mins/maxs below (y has a zero span).
    static let meanValues: [[Int]] = [[0, 0, 65535], [65535, 65535, 0], [32768, 0x1234, 0]]
    static let meansMins: [Double] = [-1, 0, 0.5], meansMaxs: [Double] = [1, 0, 2.5]
    // Rotations: RGB bytes and the tag 252 + largest of (w, x, y, z); 7 is not a tag (identity).
    static let quats: [[UInt8]] = [[191, 64, 140, 253], [20, 230, 128, 255], [1, 2, 3, 7]]
    static let scaleBytes: [[UInt8]] = [[0, 100, 255], [10, 20, 30], [128, 129, 130]]
    static let sh0: [[UInt8]] = [[0, 128, 255, 255], [64, 65, 66, 128], [200, 100, 50, 51]]
    /// SH palette labels: 257 (R = 1, G = 1: row 4, slot 1), 400 (beyond the palette of 320), 0.
    static let labels = [257, 400, 0]
    static let paletteRows = 5

    /// The centroid palette image for band 1 (3 coefficients): texel (x, y) = distinct bytes.
    static func centroidTexel(_ x: Int, _ y: Int) -> [UInt8] {
        [UInt8((x * 3 + y * 11) & 255), UInt8((x * 5 + y * 7 + 1) & 255), UInt8((x + y * 13 + 2) & 255), 255]
    }

    static func image(_ texels: [[UInt8]], width: Int = 2, height: Int = 2) -> [UInt8] {
        var rgba = texels.flatMap { $0 }
        while rgba.count < width * height * 4 { rgba += [9, 9, 9, 255] }    // spare texels
        return webpLossless(width: width, height: height, rgba)
    }

    static var images: [String: [UInt8]] {
        [
            "means_l.webp": image(meanValues.map { $0.map { UInt8($0 & 255) } + [255] }),
            "means_u.webp": image(meanValues.map { $0.map { UInt8($0 >> 8) } + [255] }),
            "quats.webp": image(quats),
            "scales.webp": image(scaleBytes.map { $0 + [255] }),
            "sh0.webp": image(sh0),
            "shN_centroids.webp": image((0..<paletteRows).flatMap { y in (0..<192).map { x in centroidTexel(x, y) } }, width: 192, height: paletteRows),
            "shN_labels.webp": image(labels.map { [UInt8($0 & 255), UInt8($0 >> 8), 0, 255] }),
        ]
    }

    // v2 codebooks: scales −5 + 0.01·i (entry 0 written as null, patched by the reader),
    // sh0 (i − 128)/64, shN i/100 − 1.
    static let scaleCodebook = (0..<256).map { -5 + 0.01 * Double($0) }
    static let dcCodebook = (0..<256).map { (Double($0) - 128) / 64 }
    static let shCodebook = (0..<256).map { Double($0) / 100 - 1 }

    static func json(_ v: [Double]) -> String { "[" + v.map { "\($0)" }.joined(separator: ",") + "]" }

    static var v2: HandSOG {
        let scales = "[null," + scaleCodebook.dropFirst().map { "\($0)" }.joined(separator: ",") + "]"
        let meta = """
        {"version":2,"count":3,"asset":{"generator":"hand"},
         "means":{"mins":\(json(meansMins)),"maxs":\(json(meansMaxs)),"files":["means_l.webp","means_u.webp"]},
         "scales":{"codebook":\(scales),"files":["scales.webp"]},
         "quats":{"files":["quats.webp"]},
         "sh0":{"codebook":\(json(dcCodebook)),"files":["sh0.webp"]},
         "shN":{"count":320,"bands":1,"codebook":\(json(shCodebook)),"files":["shN_centroids.webp","shN_labels.webp"]}}
        """
        return HandSOG(meta: meta, files: images)
    }

    // v1 lerps: scales per axis, sh0 four channels (the fourth an opacity logit), shN scalar.
    static let v1ScaleMins: [Double] = [-6, -5, -4], v1ScaleMaxs: [Double] = [-1, 0, 1]
    static let v1DCMins: [Double] = [-2, -1, 0, -4], v1DCMaxs: [Double] = [2, 1, 3, 4]
    static let v1SHMin = -0.5, v1SHMax = 0.75

    static var v1: HandSOG {
        let meta = """
        {"means":{"shape":[3,3],"dtype":"float32","mins":\(json(meansMins)),"maxs":\(json(meansMaxs)),"files":["means_l.webp","means_u.webp"]},
         "scales":{"shape":[3,3],"dtype":"float32","mins":\(json(v1ScaleMins)),"maxs":\(json(v1ScaleMaxs)),"files":["scales.webp"]},
         "quats":{"shape":[3,4],"dtype":"uint8","encoding":"quaternion_packed","files":["quats.webp"]},
         "sh0":{"shape":[3,1,4],"dtype":"float32","mins":\(json(v1DCMins)),"maxs":\(json(v1DCMaxs)),"files":["sh0.webp"]},
         "shN":{"shape":[320,9],"dtype":"float32","mins":\(v1SHMin),"maxs":\(v1SHMax),"quantization":8,"files":["shN_centroids.webp","shN_labels.webp"]}}
        """
        return HandSOG(meta: meta, files: images)
    }

    /// Expected positions, by hand: t = mins + span·v/65535 (span 0 → 1); p = sign(t)(e^|t| − 1).
    static var positions: [Vec3] {
        let e = Float(M_E)
        let t2 = (-1 + 2 * 32768.0 / 65535, Double(0x1234) / 65535, 0.5)
        func inv(_ t: Double) -> Float { Float(t < 0 ? -(exp(-t) - 1) : exp(t) - 1) }
        return [Vec3(-(e - 1), 0, expf(2.5) - 1), Vec3(e - 1, e - 1, expf(0.5) - 1), Vec3(inv(t2.0), inv(t2.1), inv(t2.2))]
    }

    /// Expected rotations, by hand: splat 0 has x largest (R, G, B → w, y, z); splat 1 has z
    /// largest (R, G, B → w, x, y); splat 2's tag is invalid → identity.
    static var rotations: [Quaternion] {
        func v(_ b: UInt8) -> Float { (Float(b) / 255 * 2 - 1) / Float(2).squareRoot() }
        let (w0, y0, z0) = (v(191), v(64), v(140))
        let x0 = (1 - w0 * w0 - y0 * y0 - z0 * z0).squareRoot()
        let (w1, x1, y1) = (v(20), v(230), v(128))
        let z1 = (1 - w1 * w1 - x1 * x1 - y1 * y1).squareRoot()
        return [Quaternion(w: w0, x: x0, y: y0, z: z0), Quaternion(w: w1, x: x1, y: y1, z: z1), Quaternion(w: 1, x: 0, y: 0, z: 0)]
    }

    /// Expected SH rest of splat i (3 coefficients × RGB, channel innermost), given the byte → value map.
    static func shRest(_ i: Int, _ value: (UInt8) -> Float) -> [Float] {
        let label = labels[i]
        guard label < 64 * paletteRows else { return [Float](repeating: 0, count: 9) }
        let row = label / 64, slot = label % 64
        return (0..<3).flatMap { j in centroidTexel(slot * 3 + j, row).prefix(3).map(value) }
    }
}

func close(_ a: Float, _ b: Float, _ tol: Float = 1e-5) -> Bool { abs(a - b) <= tol * max(1, abs(b)) }
func closeAll(_ a: [Float], _ b: [Float], _ tol: Float = 1e-5) -> Bool { a.count == b.count && zip(a, b).allSatisfy { close($0, $1, tol) } }

// MARK: - Decoding

struct SOGTests {
    func checkCommon(_ c: SplatCloud) {
        #expect(c.count == 3)
        for i in 0..<3 {
            #expect(closeAll([c.positions[i].x, c.positions[i].y, c.positions[i].z],
                             [Fixture.positions[i].x, Fixture.positions[i].y, Fixture.positions[i].z]), "position \(i)")
            let (q, e) = (c.rotations[i], Fixture.rotations[i])
            #expect(closeAll([q.w, q.x, q.y, q.z], [e.w, e.x, e.y, e.z]), "rotation \(i): \(q) vs \(e)")
        }
        // Slots: splat 0 stores w, y, z (x largest) — its x must be the rebuilt one.
        #expect(c.rotations[0].x > 0.5 && abs(c.rotations[0].y - (64.0 / 255 * 2 - 1) / Float(2).squareRoot()) < 1e-5)
        #expect(c.rotations[2] == Quaternion(w: 1, x: 0, y: 0, z: 0))
    }

    @Test func v2BundledStoredAndDeflated() throws {
        for deflate in [false, true] {
            let c = try #require(splats(try loadBytes(try Fixture.v2.zip(deflate: deflate), "hand.sog")))
            checkCommon(c)
            // Scales: exp(codebook[b]); codebook[0] was null → cb[1] + (cb[1] − cb[255])/255.
            let cb = Fixture.scaleCodebook
            let patched = cb[1] + (cb[1] - cb[255]) / 255
            #expect(close(c.scales[0].x, Float(exp(patched))))
            #expect(close(c.scales[0].y, Float(exp(-5 + 0.01 * 100))) && close(c.scales[0].z, Float(exp(-5 + 0.01 * 255))))
            #expect(close(c.scales[1].x, Float(exp(-5 + 0.1))) && close(c.scales[2].z, Float(exp(-5 + 1.30))))
            // DC: codebook (b − 128)/64; opacity A/255 (already through the sigmoid).
            #expect(c.dc[0] == Vec3(-2, 0, 127.0 / 64) && c.dc[2] == Vec3(72.0 / 64, -28.0 / 64, -78.0 / 64))
            #expect(c.opacities == [1, 128.0 / 255, 51.0 / 255])
            // SH: band 1 from meta; label 257 → row 4, slot 1; label 400 ≥ palette 320 → zero.
            #expect(c.shDegree == 1 && c.shRest.count == 27)
            for i in 0..<3 {
                #expect(closeAll(Array(c.shRest[(i * 9)..<(i * 9 + 9)]), Fixture.shRest(i) { Float($0) / 100 - 1 }), "SH of splat \(i)")
            }
            #expect(c.shRest[9..<18].allSatisfy { $0 == 0 })
        }
    }

    @Test func v1UnbundledFolderAndMetaPath() throws {
        let dir = try Fixture.v1.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for path in [dir, dir + "/meta.json"] {
            let (scene, info) = try SceneFile.loadWithInfo(path: path)
            let c = try #require(splats(scene))
            checkCommon(c)
            #expect(info.format == .sog && info.version == "1" && info.variant == "unbundled folder")
            #expect(info.fileBytes > Fixture.v1.meta.utf8.count)
            // Scales: exp(lerp(mins, maxs, b/255)) per axis.
            func lerp(_ lo: Double, _ hi: Double, _ b: UInt8) -> Float { Float(lo + (hi - lo) * Double(b) / 255) }
            for i in 0..<3 { for a in 0..<3 {
                #expect(close(c.scales[i][a], expf(lerp(Fixture.v1ScaleMins[a], Fixture.v1ScaleMaxs[a], Fixture.scaleBytes[i][a]))))
                #expect(close(c.dc[i][a], lerp(Fixture.v1DCMins[a], Fixture.v1DCMaxs[a], Fixture.sh0[i][a])))
            } }
            // Opacity: sigmoid of the logit lerp (mins[3] = −4, maxs[3] = 4): A = 255 → σ(4), 51 → σ(−2.4).
            #expect(close(c.opacities[0], 1 / (1 + expf(-4))) && close(c.opacities[2], 1 / (1 + expf(2.4))))
            #expect(close(c.opacities[1], 1 / (1 + expf(-(-4 + 8 * 128 / 255)))))
            // SH: bands from the centroid width (192 → 1); palette = 64 per row; values lerp the scalars.
            #expect(c.shDegree == 1)
            for i in 0..<3 {
                #expect(closeAll(Array(c.shRest[(i * 9)..<(i * 9 + 9)]), Fixture.shRest(i) { lerp(Fixture.v1SHMin, Fixture.v1SHMax, $0) }), "SH of splat \(i)")
            }
        }
    }

    @Test func v1BundledAndV2FolderMatchTheirTwins() throws {
        let v1zip = try #require(splats(try loadBytes(try Fixture.v1.zip(deflate: true), "v1.sog")))
        let dir = try Fixture.v1.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let v1dir = try #require(splats(try SceneFile.load(path: dir)))
        #expect(v1zip.positions == v1dir.positions && v1zip.shRest == v1dir.shRest && v1zip.opacities == v1dir.opacities)
        let v2dir = try Fixture.v2.folder()
        defer { try? FileManager.default.removeItem(atPath: v2dir) }
        let a = try #require(splats(try SceneFile.load(path: v2dir)))
        let b = try #require(splats(try loadBytes(try Fixture.v2.zip(), "v2.sog")))
        #expect(a.positions == b.positions && a.scales == b.scales && a.dc == b.dc && a.shRest == b.shRest)
    }

    @Test func noSHAndBandsZero() throws {
        var s = Fixture.v2.editing("\"bands\":1", "\"bands\":0")
        var c = try #require(splats(try loadBytes(try s.zip(), "b0.sog")))
        #expect(c.shDegree == 0 && c.shRest.isEmpty)
        s = Fixture.v2
        s.meta = s.meta.replacingOccurrences(of: #",\s*"shN":\{[^}]*\}"#, with: "", options: .regularExpression)
        #expect(!s.meta.contains("shN"))
        c = try #require(splats(try loadBytes(try s.zip(), "nosh.sog")))
        #expect(c.shDegree == 0 && c.count == 3)
    }

    @Test func detection() throws {
        let z = try Fixture.v2.zip()
        z.withUnsafeBytes { raw in
            #expect(SceneFormat.detect(raw, name: "x.sog") == .sog)
            #expect(SceneFormat.detect(raw, name: "x.bin") == .sog)
        }
        Array("{\"version\":2}".utf8).withUnsafeBytes { #expect(SceneFormat.detect($0, name: "a/meta.json") == .sog) }
        Array("{}".utf8).withUnsafeBytes { #expect(SceneFormat.detect($0, name: "a/scene.json") == nil) }
        #expect(SceneFormat(extension: "SOG") == .sog)
    }

    @Test func infoAndConvertToPLY() throws {
        let dir = TestData.temporaryDirectory("sog-convert")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sog = dir.appendingPathComponent("hand.sog").path
        try Data(try Fixture.v2.zip(deflate: true)).write(to: URL(fileURLWithPath: sog))
        let out = dir.appendingPathComponent("hand.ply").path
        let info = try SceneFile.convert(input: sog, output: out)
        #expect(info.format == .sog && info.version == "2" && info.variant == "bundled ZIP" && info.count == 3 && info.shDegree == 1)
        #expect(info.json.contains("\"format\" : \"sog\""))
        let a = try #require(splats(try SceneFile.load(path: sog)))
        let b = try #require(splats(try SceneFile.load(path: out)))
        #expect(a.positions == b.positions && a.shRest == b.shRest && maxDiff(a.scales[1], b.scales[1]) < 1e-6)
    }
}

// MARK: - Fuzz seeds

struct SOGFuzzSeeds {
    static let names = ["means_l.webp", "means_u.webp", "quats.webp", "scales.webp", "sh0.webp", "shN_centroids.webp", "shN_labels.webp"]

    /// The `sog` harness's virtual-folder form: meta.json, then the images separated by "\n--sog--\n".
    static func folderForm(_ s: HandSOG) -> [UInt8] {
        names.reduce(Array(s.meta.utf8)) { $0 + Array("\n--sog--\n".utf8) + (s.files[$1] ?? []) }
    }

    /// The same form of 12 splats of SH 3 written with splatframe's SH rows (`shN_rows.zst`).
    static func rowsFolderForm() throws -> [UInt8] {
        var o = SOGWriter.Options()
        o.shRows = true
        let e = try SOGWriter.encode(syntheticCloud(count: 12, degree: 3, seed: 3), options: o)
        let files = Dictionary(uniqueKeysWithValues: e.files.map { ($0.name, $0.bytes) })
        let order = ["means_l.webp", "means_u.webp", "quats.webp", "scales.webp", "sh0.webp", "shN_rows.zst"]
        return order.reduce(e.meta) { $0 + Array("\n--sog--\n".utf8) + (files[$1] ?? []) }
    }

    /// Writes Fuzz/corpus/sog/ (only when SPLATFRAME_WRITE_SOG_SEEDS is set).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SPLATFRAME_WRITE_SOG_SEEDS"] != nil))
    func writeFuzzSeeds() throws {
        let dir = TestData.projectRoot.appendingPathComponent("Fuzz/corpus/sog")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let seeds: [(String, [UInt8])] = [
            ("v2_stored.sog", try Fixture.v2.zip()),
            ("v1_deflated.sog", try Fixture.v1.zip(deflate: true)),
            ("v2_folder.bin", Self.folderForm(Fixture.v2)),
            ("v2_rows_folder.bin", try Self.rowsFolderForm()),
            ("v1_folder.bin", Self.folderForm(Fixture.v1)),
        ]
        for (name, bytes) in seeds { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
    }

    /// The checked-in seeds decode (the folder form through an in-memory container).
    @Test func seedsDecode() throws {
        let dir = TestData.projectRoot.appendingPathComponent("Fuzz/corpus/sog")
        let sog = try Data(contentsOf: dir.appendingPathComponent("v2_stored.sog"))
        #expect(try splats(loadBytes(Array(sog), "seed.sog"))?.count == 3)
        #expect(Self.folderForm(Fixture.v2).count < 65536)
    }
}

// MARK: - Hostile input

struct SOGHostileTests {
    func zipError(_ s: HandSOG, _ contains: String..., deflate: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try s.zip(deflate: deflate)
        error({ try loadBytes(bytes, "bad.sog") }, file: "bad.sog", contains: contains, sourceLocation: sourceLocation)
    }

    @Test func zipBombRejectedBeforeInflating() throws {
        // meta.json declared at 17 MB (deflated to ~17 KB) > the 16 MB cap.
        var s = Fixture.v2
        s.meta += String(repeating: " ", count: 17 << 20)
        try zipError(s, "\"meta.json\"", "at most \(16 << 20) uncompressed bytes", "declared", deflate: true)
        // An image entry beyond a (small) cap.
        let bytes = try Fixture.v2.zip(deflate: true)
        let limits = SOGReader.Limits(maxTexels: 1 << 20, maxEntryBytes: 10, maxMetaBytes: 1 << 20)
        error({ try bytes.withUnsafeBytes { try SOGReader.read(ByteView(bytes: $0, file: "cap.sog"), directory: nil, limits: limits, progress: nil) } },
              file: "cap.sog", contains: ["means_l.webp", "at most 10 uncompressed bytes"])
    }

    @Test func zipSizeLiesAreCaught() throws {
        // A deflated meta.json whose headers declare 100 bytes fewer than it inflates to.
        var z = try Fixture.v2.zip(deflate: true)
        let metaSize = Fixture.v2.meta.utf8.count
        func patch(_ signature: [UInt8], sizeAt: Int) {
            for o in 0..<(z.count - 46) where Array(z[o..<(o + 4)]) == signature {
                let size = Int(z[o + sizeAt]) | Int(z[o + sizeAt + 1]) << 8 | Int(z[o + sizeAt + 2]) << 16
                if size == metaSize {
                    let lie = metaSize - 100
                    z[o + sizeAt] = UInt8(lie & 255); z[o + sizeAt + 1] = UInt8((lie >> 8) & 255); z[o + sizeAt + 2] = UInt8(lie >> 16)
                }
            }
        }
        patch([0x50, 0x4b, 0x03, 0x04], sizeAt: 22)       // local header: uncompressed size
        patch([0x50, 0x4b, 0x01, 0x02], sizeAt: 24)       // central directory: uncompressed size
        error({ try loadBytes(z, "lie.sog") }, file: "lie.sog", contains: ["meta.json"])
        // A truncated archive.
        let full = try Fixture.v2.zip()
        error({ try loadBytes(Array(full.prefix(full.count / 2)), "cut.sog") }, file: "cut.sog", contains: ["ZIP"])
        error({ try loadBytes(Array("PK\u{3}\u{4}garbage".utf8), "junk.sog") }, file: "junk.sog", contains: ["ZIP"])
        error({ try loadBytes(Array("{\"version\":2}".utf8), "plain.sog") }, file: "plain.sog", contains: ["byte 0", "ZIP"])
    }

    @Test func imagesTooSmallForCount() throws {
        var s = Fixture.v2
        s.files["means_l.webp"] = webpLossless(width: 1, height: 2, [UInt8](repeating: 255, count: 8))
        try zipError(s, "means_l.webp", "at least 3 texels", "1x2")
        s = Fixture.v2
        s.files["shN_labels.webp"] = webpLossless(width: 2, height: 1, [UInt8](repeating: 255, count: 8))
        try zipError(s, "shN_labels.webp", "at least 3 texels")
        // An image larger than the texel cap.
        let bytes = try Fixture.v2.zip()
        let limits = SOGReader.Limits(maxTexels: 500, maxEntryBytes: 1 << 20, maxMetaBytes: 1 << 20)
        error({ try bytes.withUnsafeBytes { try SOGReader.read(ByteView(bytes: $0, file: "big.sog"), directory: nil, limits: limits, progress: nil) } },
              file: "big.sog", contains: ["shN_centroids.webp", "at most 500 texels", "192x5"])
    }

    @Test func hugeCountRejectedBeforeAllocating() throws {
        try zipError(Fixture.v2.withCount("1000000000000"), "count", "1000000000000")
        try zipError(Fixture.v1.editing("\"shape\":[3,3],\"dtype\":\"float32\",\"mins\":[-1", "\"shape\":[1000000000000,3],\"dtype\":\"float32\",\"mins\":[-1"),
                     "means.shape[0]", "1000000000000")
        try zipError(Fixture.v2.withCount("100"), "means_l.webp", "at least 100 texels")
        try zipError(Fixture.v2.withCount("-1"), "meta.json count", "-1")
        try zipError(Fixture.v2.withCount("1e300"), "meta.json count")
    }

    @Test func missingFilesAndEntries() throws {
        var s = Fixture.v2
        s.files["quats.webp"] = nil
        try zipError(s, "quats.webp", "no such entry")
        error({ try loadBytes(try zipArchive([("readme.txt", [1, 2, 3])], deflate: false), "nometa.sog") },
              file: "nometa.sog", contains: ["meta.json", "no such entry"])
        let dir = try s.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        error({ try SceneFile.load(path: dir) }, file: dir, contains: ["quats.webp", "no such file"])
        let empty = TestData.temporaryDirectory("sog-empty")
        defer { try? FileManager.default.removeItem(at: empty) }
        error({ try SceneFile.load(path: empty.path) }, file: empty.path, contains: ["meta.json", "no such file"])
        try Data("{}".utf8).write(to: empty.appendingPathComponent("lod-meta.json"))
        // A folder holding lod-meta.json (and no meta.json) is a streamed SOG: "{}" lacks its fields.
        error({ try SceneFile.load(path: empty.path) }, file: empty.path, contains: ["lod-meta.json", "lodLevels"])
        // Names that leave the folder.
        try zipError(Fixture.v2.editing("\"quats.webp\"]", "\"../quats.webp\"]"), "quats.files", "relative file name")
    }

    @Test func malformedJSON() throws {
        try zipError(Fixture.v2.withCount(""), "meta.json", "valid JSON")
        try zipError(Fixture.v2.withCount("\"three\""), "meta.json count")
        try zipError(Fixture.v2.editing("\"version\":2", "\"version\":3"), "version", "3")
        try zipError(Fixture.v2.editing("\"quats\":{\"files\":[\"quats.webp\"]},", ""), "quats", "nothing")
        try zipError(Fixture.v2.editing("\"mins\":[-1.0,", "\"mins\":["), "means.mins", "3 numbers")
        try zipError(Fixture.v1.editing("\"mins\":[-2.0,", "\"mins\":["), "sh0.mins", "4 numbers")
        var s = Fixture.v2
        s.meta = "[1, 2"
        try zipError(s, "meta.json", "valid JSON")
        s.meta = String(repeating: "[", count: 100_000)
        try zipError(s, "meta.json")
    }

    @Test func codebooks() throws {
        // Wrong lengths.
        try zipError(Fixture.v2.editing("\"codebook\":[-2.0,", "\"codebook\":["), "sh0.codebook", "256 entries", "255")
        try zipError(Fixture.v2.editing("\"codebook\":[-1.0,", "\"codebook\":[-1.0,-1.0,"), "shN.codebook", "256 entries", "257")
        // A null beyond the first entry is not patched.
        try zipError(Fixture.v2.editing("\"codebook\":[-2.0,-1.984375,", "\"codebook\":[-2.0,null,"), "sh0.codebook[1]", "null")
        // SH bands out of range; a centroid image of the wrong width.
        try zipError(Fixture.v2.editing("\"bands\":1", "\"bands\":4"), "shN.bands", "0…3")
        try zipError(Fixture.v2.editing("\"bands\":1", "\"bands\":2"), "shN_centroids.webp", "width of 512", "192")
        var s = Fixture.v1
        s.files["shN_centroids.webp"] = webpLossless(width: 100, height: 1, [UInt8](repeating: 255, count: 400))
        try zipError(s, "shN_centroids.webp", "192, 512 or 960")
    }

    @Test func notWebP() throws {
        var s = Fixture.v2
        s.files["scales.webp"] = Array("not an image at all".utf8)
        try zipError(s, "scales.webp", "a WebP image")
        s.files["scales.webp"] = Array(Fixture.images["scales.webp"]!.prefix(30))
        try zipError(s, "scales.webp")
        s.files["scales.webp"] = []
        try zipError(s, "scales.webp", "empty")
    }
}

// MARK: - Real files

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct SOGRealFileTests {
    /// Finite, object-sized bounds; opacities in 0…1; unit rotations.
    func sane(_ c: SplatCloud, maxExtent: Float) {
        let b = c.bounds
        let size = b.max - b.min
        #expect(b.min.x.isFinite && b.max.x.isFinite && b.min.y.isFinite && b.max.y.isFinite && b.min.z.isFinite && b.max.z.isFinite)
        #expect(size.min() > 0.05 && size.max() < maxExtent, "extent \(size)")
        #expect(c.opacities.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(c.rotations.allSatisfy { abs($0.w * $0.w + $0.x * $0.x + $0.y * $0.y + $0.z * $0.z - 1) < 1e-4 })
        #expect(c.scales.allSatisfy { $0.x > 0 && $0.x.isFinite && $0.y > 0 && $0.z > 0 })
    }

    @Test func monkeyBundledV2() throws {
        let (scene, info) = try SceneFile.loadWithInfo(path: TestData.path("splats/sog/monkey_0001.sog"))
        let c = try #require(splats(scene))
        #expect(c.count == 31_658 && c.shDegree == 0)
        #expect(info.format == .sog && info.version == "2" && info.variant == "bundled ZIP" && info.fileBytes == 226_345)
        sane(c, maxExtent: 5)
        // The bounds sit inside meta's means mins/maxs (log-space ±0.85 → ±1.33).
        #expect(c.bounds.max.x <= expf(0.8454) - 1 + 1e-4 && c.bounds.min.x >= -(expf(0.8454) - 1) - 1e-4)
    }

    @Test func playcanvasLogoUnbundledV1() throws {
        let dir = TestData.path("splats/sog/playcanvas-logo")
        let (scene, info) = try SceneFile.loadWithInfo(path: dir)
        let c = try #require(splats(scene))
        #expect(c.count == 307_128 && c.shDegree == 0)
        #expect(info.version == "1" && info.variant == "unbundled folder")
        sane(c, maxExtent: 5)
        let viaMeta = try #require(splats(try SceneFile.load(path: dir + "/meta.json")))
        #expect(viaMeta.positions == c.positions)
    }

    @Test func playbotChunksAreUnbundledV2() throws {
        let c = try #require(splats(try SceneFile.load(path: TestData.path("splats/sog/playbot-lod/6_0"))))
        #expect(c.count == 1_873 && c.shDegree == 2 && c.shRest.count == 1_873 * 24)
        sane(c, maxExtent: 5)
        #expect(c.shRest.contains { $0 != 0 })
        let big = try #require(splats(try SceneFile.load(path: TestData.path("splats/sog/playbot-lod/0_0"))))
        #expect(big.count == 500_000 && big.shDegree == 2)
        sane(big, maxExtent: 5)
        // The streamed top level loads too (its finest level: StreamedSOGTests).
    }
}
