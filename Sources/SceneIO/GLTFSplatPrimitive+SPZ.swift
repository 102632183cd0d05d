// SceneIO — GLTFSplatPrimitive+SPZ: a KHR_gaussian_splatting primitive whose splats are an SPZ
// payload, as `KHR_gaussian_splatting_compression_spz_2` says (KhronosGroup/glTF PR #2531, draft).
//
// Facts (the draft's README): the extension is an object in the `KHR_gaussian_splatting` object's
// own `extensions`, with `bufferView`: the bytes of an SPZ stream exactly as a `.spz` file holds it
// ("v2 of the SPZ compression format": nianticlabs/spz 2.x, gzip, NGSP versions 2 and 3). Its
// values stand for the primitive's POSITION, COLOR_0, SCALE, ROTATION and SH attributes (and the
// opacity), whose accessors need no bufferView; each accessor's `count` is the SPZ's point count.
// The payload is packed and unpacked with LUF as the caller's frame ("you must specify a
// Left-Up-Front coordinate system"); nianticlabs/spz turns its stored RUB into LUF by flipping x
// and z (`coordinateConverter` in splat-types.h, axesMatch over the enum's bits), so glTF
// coordinates are (−x, −y, z) of the RDF `SPZReader` gives, and `writerTurn` is the inverse chain.
//
// Contract: the SPZ bytes go through `SPZReader` (its checks, its limits, its one-line errors, named
// `FILE bufferView N`); the splats come out in the mesh's own glTF space like a plain primitive's,
// so nodes and the turn into the splat frame apply as for any primitive. SH degree 4 (not in the
// extension) is dropped with a warning. A bufferView outside its buffer or an accessor count
// unlike the payload's is one line naming the file and the bufferView or accessor.
import Foundation
import JSONInput
import RenderCore

extension GLTFSplatPrimitive {
    /// The extension's name, and the draft's earlier spelling of it in `extensionsUsed`.
    static let spzExtension = "KHR_gaussian_splatting_compression_spz_2"
    static let spzExtensionNames = [spzExtension, "KHR_gaussian_splatting_compression_spz"]

    /// RDF (what `SPZReader` gives) → glTF's LUF.
    static let spzToGLTF = SPZCoordinateSystem(raw: 7)!.toRDF.inverse
    /// The turn `SPZWriter`'s input takes so that a payload unpacked as LUF gives back the glTF
    /// coordinates the plain writer stores: RDF → glTF (RUB as the plain writer maps it) → RDF read as LUF.
    static let writerTurn = [SPZCoordinateSystem.rub.toRDF.inverse, SPZCoordinateSystem(raw: 7)!.toRDF]

    /// The compression extension's object under `ext` (the KHR_gaussian_splatting object), if any.
    static func spzCompression(_ ext: JSONNode) throws -> JSONNode? {
        guard let nested = try ext.optional("extensions") else { return nil }
        for name in spzExtensionNames { if let node = try nested.optional(name) { return node } }
        return nil
    }

    /// Reads the splats of an SPZ-compressed primitive (`spz`: the compression extension's object).
    static func readSPZ(_ p: JSONNode, spz: JSONNode, doc: GLTFContainer, where place: String, colorSpace: String,
                        warnings: inout [String]) throws -> GLTFSplatPrimitive {
        let file = doc.file
        let index = try spz.required("bufferView", "a bufferView index").integer()
        let name = "\(file) bufferView \(index)"
        let read = try bufferView(index, in: doc, what: spzExtension) { raw in
            try SPZReader.read(ByteView(bytes: raw, file: name), progress: nil)
        }
        guard case .splats(var cloud) = read.scene else {
            throw SceneIOError.badEntry(file: file, entry: "bufferView \(index) (\(spzExtension))", expected: "SPZ splats", found: "another kind")
        }
        warnings += read.warnings
        if read.version == "4" {
            warnings.append("\(place): an SPZ version 4 payload (the extension names SPZ 2.x: versions 2 and 3); read all the same")
        }
        if cloud.shDegree > 3 {
            warnings.append("\(place): SPZ SH degree \(cloud.shDegree) cut to 3 (the extension stops at degree 3)")
            cloud = cloud.keepingSH(degree: 3)
        }
        let n = cloud.count
        // Every attribute's accessor counts the payload's points (it may have no bufferView).
        let accessors = try doc.json.optional("accessors")?.array() ?? []
        let attributes = try p.required("attributes", "an object").members()
        for key in attributes.keys.sorted() {
            let ai = try attributes[key]!.integer()
            guard ai >= 0, ai < accessors.count else {
                throw SceneIOError.badEntry(file: file, entry: "accessor \(ai) (\(key))", expected: "an accessor index below \(accessors.count)", found: "\(ai)")
            }
            let count = try accessors[ai].required("count", "an element count").integer()
            guard count == n else {
                throw SceneIOError.badEntry(file: file, entry: "accessor \(ai) (\(key))", expected: "\(n) elements like the SPZ payload's", found: "\(count)")
            }
        }
        Self.turn(&cloud, by: [spzToGLTF])
        let props = ["SPZ v\(read.version) in bufferView \(index)"] + (read.elements.first?.properties ?? [])
        var out = GLTFSplatPrimitive(count: n, degree: cloud.shDegree, colorSpace: colorSpace,
                                     element: SceneInfo.Element(name: place, count: n, properties: props),
                                     linear: colorSpace == "lin_rec709_display")
        out.positions = cloud.positions; out.scales = cloud.scales; out.rotations = cloud.rotations
        out.opacities = cloud.opacities; out.dc = cloud.dc; out.rest = cloud.shRest
        return out
    }

    /// Hands `body` the bytes of bufferView `index` after checking it lies inside its buffer.
    static func bufferView<T>(_ index: Int, in doc: GLTFContainer, what: String, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let file = doc.file
        let entry = "bufferView \(index) (\(what))"
        func bad(_ expected: String, _ found: String) -> SceneIOError { .badEntry(file: file, entry: entry, expected: expected, found: found) }
        let views = try doc.json.optional("bufferViews")?.array() ?? []
        guard index >= 0, index < views.count else { throw bad("a bufferView index below \(views.count)", "\(index)") }
        let bv = views[index]
        let buffer = try bv.required("buffer", "a buffer index").integer()
        guard buffer >= 0, buffer < doc.buffers.count else { throw bad("a buffer index below \(doc.buffers.count)", "\(buffer)") }
        let offset = try bv.optional("byteOffset")?.integer(in: 0...Int.max / 4, "a byte offset") ?? 0
        let length = try bv.required("byteLength", "a length").integer(in: 1...Int.max / 4, "a length ≥ 1")
        let declared = try doc.json.optional("buffers")?.array()[buffer].required("byteLength", "a length").integer() ?? 0
        guard offset + length <= declared else {
            throw bad("a view inside buffer \(buffer) (\(declared) bytes)", "bytes \(offset)…\(offset + length)")
        }
        return try doc.buffers[buffer].withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            try body(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]))
        }
    }

    /// Applies each change of frame of `maps` (pure flips) to the centres, rotations and SH.
    static func turn(_ cloud: inout SplatCloud, by maps: [SPZAxisMap]) {
        let k = cloud.shRestCount
        for map in maps {
            let signs = map.shSigns(restCount: k) ?? []
            for i in 0..<cloud.count {
                cloud.positions[i] = map.position(cloud.positions[i])
                cloud.rotations[i] = map.rotation(cloud.rotations[i])
                for j in 0..<k where signs[j] < 0 {
                    for c in 0..<3 { cloud.shRest[(i * k + j) * 3 + c] = -cloud.shRest[(i * k + j) * 3 + c] }
                }
            }
        }
    }
}

extension SplatCloud {
    /// The same splats with SH bands above `degree` dropped.
    func keepingSH(degree: Int) -> SplatCloud {
        guard degree < shDegree else { return self }
        let from = shRestCount, to = SplatCloud.restCount(degree: degree)
        var out = SplatCloud(shDegree: degree)
        out.reserveCapacity(count)
        for i in 0..<count {
            out.append(position: positions[i], scale: scales[i], rotation: rotations[i], opacity: opacities[i], dc: dc[i],
                       rest: Array(shRest[(i * from * 3)..<(i * from * 3 + to * 3)]))
        }
        return out
    }
}
