// SceneIO — SOGMeta: a PlayCanvas SOG `meta.json` (v1 or v2), parsed and checked.
//
// Contract: after `parse`, every field the decoder uses is present with the right length
// (3 per-axis bounds, 4 for v1 sh0, 256-entry codebooks), every number is finite, every
// file name is a plain relative name, and `count` is a non-negative integer; nothing is
// allocated in proportion to `count`. A null first codebook entry (old writers) is patched
// as the PlayCanvas engine does: cb[0] = cb[1] + (cb[1] − cb[255]) / 255.
import Foundation
import JSONInput

/// What a SOG's `meta.json` says: version, splat count, the image files and the dequantisation.
struct SOGMeta {
    /// How 8-bit texel values map to floats.
    enum Quantisation {
        /// v2: the byte indexes a 256-entry codebook.
        case codebook([Float])
        /// v1: the byte lerps per channel between mins and maxs (b / 255).
        case lerp(mins: [Float], maxs: [Float])
    }

    /// The higher-order SH block (`shN`).
    struct SH {
        /// v2: bands 1…3 from meta; v1: nil (known from the centroid image's width).
        var bands: Int?
        /// v2: a 256-entry codebook; v1: a lerp between the scalar mins and maxs.
        var values: Quantisation
        /// Where the coefficients' bytes are.
        var storage: Storage

        /// How a SOG keeps its higher-order SH.
        enum Storage: Equatable {
            /// The format's own: a palette image (`centroids`, 64 entries a row) and a label per
            /// splat (`labels`); `count`, v2's palette entries (`shN.count`; v1: nil).
            case palette(count: Int?, centroids: String, labels: String)
            /// splatframe's extension for its level-of-detail cache (`"encoding": "rows-zstd"`):
            /// one zstd frame holding, splat after splat in texel order, each coefficient's R, G, B
            /// codebook bytes (coefficients × 3 a splat) — no palette to look through, and a
            /// decode far cheaper than a palette image's. No other reader knows it.
            case rows(String)
        }

        /// The files the SH block names, in the order the reader reads them.
        var files: [String] {
            switch storage {
            case let .palette(_, centroids, labels): return [centroids, labels]
            case let .rows(rows): return [rows]
            }
        }
    }

    /// `shN.encoding` of splatframe's SH rows (`SH.Storage.rows`).
    static let rowsEncoding = "rows-zstd"

    /// 1 (no `version`) or 2.
    var version: Int
    /// Splats.
    var count: Int
    /// Per-axis bounds of the log-transformed positions.
    var meansMins: SIMD3<Double>, meansMaxs: SIMD3<Double>
    /// `means_l` (low bytes) and `means_u` (high bytes).
    var meansLower: String, meansUpper: String
    var quatsFile: String
    /// Log-scales: v2 codebook or v1 lerp over 3 channels.
    var scales: Quantisation
    var scalesFile: String
    /// DC colour (and, for v1, the opacity logit as a fourth channel).
    var sh0: Quantisation
    var sh0File: String
    /// nil when the file has no higher-order SH (or v2 `bands` is 0).
    var sh: SH?

    // MARK: - Parsing

    /// Parses and checks `meta.json`.
    /// - Parameters:
    ///   - bytes: the JSON text.
    ///   - file: the container (`.sog` or folder) for errors; `entry`: the meta file's name.
    /// - Throws: `SceneIOError.badEntry` naming the field (`meta.json means.mins[1]`) and what was wrong.
    static func parse(_ bytes: Data, file: String, entry: String = "meta.json") throws -> SOGMeta {
        do {
            return try parse(JSONNode.parse(bytes), file: file, entry: entry)
        } catch let e as JSONPathError {
            throw e.sceneIOError(file: file, entry: entry)
        }
    }

    private static func parse(_ root: JSONNode, file: String, entry: String) throws -> SOGMeta {
        func names(_ group: JSONNode, _ n: Int) throws -> [String] {
            let list = try group.required("files", "\(n) file name\(n > 1 ? "s" : "")")
                .array(count: n...Int.max, "at least \(n) file name\(n > 1 ? "s" : "")")
            return try list.prefix(n).map { try checkedName($0) }
        }
        _ = try root.members()
        let version: Int
        switch try root.optional("version") {
        case nil: version = 1
        case let v?: version = try v.integer(in: 2...2, "2 (or no version: v1)")
        }

        let means = try root.required("means", "an object")
        let meansFiles = try names(means, 2)
        let mins = try means.required("mins", "3 numbers").numbers(3), maxs = try means.required("maxs", "3 numbers").numbers(3)
        let quatsFile = try names(root.required("quats", "an object"), 1)[0]
        let scalesG = try root.required("scales", "an object"), sh0G = try root.required("sh0", "an object")
        let scalesFile = try names(scalesG, 1)[0]
        let sh0File = try names(sh0G, 1)[0]

        let count: Int
        let scales: Quantisation, sh0: Quantisation
        var sh: SH? = nil
        if version == 2 {
            count = try root.required("count", "a splat count").integer(in: 0...Int.max, "a splat count ≥ 0")
            scales = .codebook(try codebook(scalesG))
            sh0 = .codebook(try codebook(sh0G))
            if let s = try root.optional("shN") {
                let bands = try s.required("bands", "0…3").integer(in: 0...3)
                if bands > 0 {
                    let storage: SH.Storage
                    if let e = try s.optional("encoding") {
                        guard try e.string("\"\(rowsEncoding)\"") == rowsEncoding else {
                            throw e.fail("\"\(rowsEncoding)\" (splatframe's SH rows) or no encoding (a palette)")
                        }
                        storage = .rows(try names(s, 1)[0])
                    } else {
                        let n = try s.required("count", "a palette size").integer(in: 0...Int.max, "a palette size ≥ 0")
                        let f = try names(s, 2)
                        storage = .palette(count: n, centroids: f[0], labels: f[1])
                    }
                    sh = SH(bands: bands, values: .codebook(try codebook(s)), storage: storage)
                }
            }
        } else {
            let shape = try means.required("shape", "[count, 3]").array(count: 1...Int.max, "[count, 3]")
            count = try shape[0].integer(in: 0...Int.max, "a splat count ≥ 0")
            func lerp(_ g: JSONNode, _ n: Int) throws -> Quantisation {
                .lerp(mins: try g.required("mins", "\(n) numbers").numbers(n).map(Float.init),
                      maxs: try g.required("maxs", "\(n) numbers").numbers(n).map(Float.init))
            }
            scales = try lerp(scalesG, 3)
            sh0 = try lerp(sh0G, 4)
            if let s = try root.optional("shN") {
                let lo = try s.required("mins", "a number").number(), hi = try s.required("maxs", "a number").number()
                let f = try names(s, 2)
                sh = SH(bands: nil, values: .lerp(mins: [Float(lo)], maxs: [Float(hi)]),
                        storage: .palette(count: nil, centroids: f[0], labels: f[1]))
            }
        }
        return SOGMeta(version: version, count: count,
                       meansMins: SIMD3(mins[0], mins[1], mins[2]), meansMaxs: SIMD3(maxs[0], maxs[1], maxs[2]),
                       meansLower: meansFiles[0], meansUpper: meansFiles[1], quatsFile: quatsFile,
                       scales: scales, scalesFile: scalesFile, sh0: sh0, sh0File: sh0File, sh: sh)
    }

    /// A group's 256-entry `codebook`, a null first entry patched as the engine does.
    private static func codebook(_ group: JSONNode) throws -> [Float] {
        let entries = try group.required("codebook", "256 entries").array(count: 256...256, "256 entries")
        var v: [Double?] = try entries.map { $0.isNull ? nil : try $0.number() }
        if v[0] == nil, let a = v[1], let b = v[255] { v[0] = a + (a - b) / 255 }
        return try v.enumerated().map { i, x in
            guard let x else { throw entries[i].fail("a number") }
            return Float(x)
        }
    }

    /// A file name inside the container: a plain relative name (no absolute path, no `..`, no
    /// NUL, not empty).
    static func checkedName(_ node: JSONNode) throws -> String {
        let s = try node.string("a file name")
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        if s.isEmpty || s.hasPrefix("/") || s.contains("\\") || s.utf8.contains(0) || parts.contains("..") || parts.contains("") {
            throw node.fail("a relative file name")
        }
        return s
    }
}

extension JSONPathError {
    /// This error as SceneIO reports it: `FILE: ENTRY PATH: expected …, found …`.
    func sceneIOError(file: String, entry: String) -> SceneIOError {
        .badEntry(file: file, entry: path.isEmpty ? entry : "\(entry) \(shortPath)", expected: expected, found: found)
    }
}
