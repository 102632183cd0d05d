// SceneIO — SOGMeta: a PlayCanvas SOG `meta.json` (v1 or v2), parsed and checked.
//
// Contract: after `parse`, every field the decoder uses is present with the right length
// (3 per-axis bounds, 4 for v1 sh0, 256-entry codebooks), every number is finite, every
// file name is a plain relative name, and `count` is a non-negative integer; nothing is
// allocated in proportion to `count`. A null first codebook entry (old writers) is patched
// as the PlayCanvas engine does: cb[0] = cb[1] + (cb[1] − cb[255]) / 255.
import Foundation

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
        /// v2: palette entries (`shN.count`); v1: nil (64 per centroid image row).
        var paletteCount: Int?
        /// v2: a 256-entry codebook; v1: a lerp between the scalar mins and maxs.
        var values: Quantisation
        var centroidsFile: String
        var labelsFile: String
    }

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
    /// - Throws: `SceneIOError.badEntry` naming the field and what was wrong.
    static func parse(_ bytes: Data, file: String, entry: String = "meta.json") throws -> SOGMeta {
        // JSONSerialization rather than Codable: on Linux, JSONDecoder reports every problem
        // as "not valid JSON" with no field; JSONSerialization says where the text is broken.
        let any: Any
        do { any = try JSONSerialization.jsonObject(with: bytes) } catch {
            let why = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw SceneIOError.badEntry(file: file, entry: entry, expected: "valid JSON", found: why)
        }
        guard let top = any as? [String: Any] else {
            throw SceneIOError.badEntry(file: file, entry: entry, expected: "a JSON object", found: JSONValue.describe(any))
        }
        let root = JSONObject(fields: top, path: "", file: file, entry: entry)

        let version: Int
        switch try root.int("version") {
        case nil: version = 1
        case 2?: version = 2
        case let v?: throw root.fail("version", "2 (or no version: v1)", "\(v)")
        }

        let means = try root.required("means")
        let meansFiles = try means.names("files", 2)
        let mins = try means.numbers("mins", 3), maxs = try means.numbers("maxs", 3)
        let quatsFile = try root.required("quats").names("files", 1)[0]
        let scalesG = try root.required("scales"), sh0G = try root.required("sh0")
        let scalesFile = try scalesG.names("files", 1)[0]
        let sh0File = try sh0G.names("files", 1)[0]

        let count: Int
        let scales: Quantisation, sh0: Quantisation
        var sh: SH? = nil
        if version == 2 {
            guard let c = try root.int("count") else { throw root.fail("count", "a splat count", "nothing") }
            guard c >= 0 else { throw root.fail("count", "a splat count ≥ 0", "\(c)") }
            count = c
            scales = .codebook(try scalesG.codebook())
            sh0 = .codebook(try sh0G.codebook())
            if let s = try root.object("shN") {
                guard let bands = try s.int("bands"), (0...3).contains(bands) else {
                    throw s.fail("bands", "0…3", JSONValue.describe(s.fields["bands"]))
                }
                if bands > 0 {
                    guard let n = try s.int("count"), n >= 0 else { throw s.fail("count", "a palette size ≥ 0", JSONValue.describe(s.fields["count"])) }
                    let f = try s.names("files", 2)
                    sh = SH(bands: bands, paletteCount: n, values: .codebook(try s.codebook()), centroidsFile: f[0], labelsFile: f[1])
                }
            }
        } else {
            guard let shape = try means.array("shape"), let first = shape.first else { throw means.fail("shape", "[count, 3]", "nothing") }
            guard let c = JSONValue.int(first), c >= 0 else { throw means.fail("shape[0]", "a splat count ≥ 0", JSONValue.describe(first)) }
            count = c
            scales = .lerp(mins: try scalesG.numbers("mins", 3).map(Float.init), maxs: try scalesG.numbers("maxs", 3).map(Float.init))
            sh0 = .lerp(mins: try sh0G.numbers("mins", 4).map(Float.init), maxs: try sh0G.numbers("maxs", 4).map(Float.init))
            if let s = try root.object("shN") {
                guard let lo = try s.number("mins") else { throw s.fail("mins", "a number", "nothing") }
                guard let hi = try s.number("maxs") else { throw s.fail("maxs", "a number", "nothing") }
                let f = try s.names("files", 2)
                sh = SH(bands: nil, paletteCount: nil, values: .lerp(mins: [Float(lo)], maxs: [Float(hi)]),
                        centroidsFile: f[0], labelsFile: f[1])
            }
        }
        return SOGMeta(version: version, count: count,
                       meansMins: SIMD3(mins[0], mins[1], mins[2]), meansMaxs: SIMD3(maxs[0], maxs[1], maxs[2]),
                       meansLower: meansFiles[0], meansUpper: meansFiles[1], quatsFile: quatsFile,
                       scales: scales, scalesFile: scalesFile, sh0: sh0, sh0File: sh0File, sh: sh)
    }

    /// Accepts plain relative names only: no absolute paths, no `..`, no NUL, not empty.
    static func checkName(_ s: String, field: String, file: String, entry: String) throws {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        if s.isEmpty || s.hasPrefix("/") || s.contains("\\") || s.utf8.contains(0) || parts.contains("..") || parts.contains("") {
            throw SceneIOError.badEntry(file: file, entry: "\(entry) \(field)", expected: "a relative file name", found: s)
        }
    }
}

/// A parsed JSON object with getters that name the field (`means.mins[1]`) in their errors.
private struct JSONObject {
    let fields: [String: Any]
    /// The object's own path from the root ("" for the root).
    let path: String
    let file: String, entry: String


    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func fail(_ key: String, _ expected: String, _ found: String) -> SceneIOError {
        .badEntry(file: file, entry: "\(entry) \(name(key))", expected: expected, found: found)
    }


    func object(_ key: String) throws -> JSONObject? {
        guard let v = fields[key] else { return nil }
        guard let o = v as? [String: Any] else { throw fail(key, "an object", JSONValue.describe(v)) }
        return JSONObject(fields: o, path: name(key), file: file, entry: entry)
    }

    func required(_ key: String) throws -> JSONObject {
        guard let o = try object(key) else { throw fail(key, "an object", "nothing") }
        return o
    }

    func array(_ key: String) throws -> [Any]? {
        guard let v = fields[key] else { return nil }
        guard let a = v as? [Any] else { throw fail(key, "an array", JSONValue.describe(v)) }
        return a
    }

    func int(_ key: String) throws -> Int? {
        guard let v = fields[key] else { return nil }
        guard let i = JSONValue.int(v) else { throw fail(key, "an integer", JSONValue.describe(v)) }
        return i
    }

    func number(_ key: String) throws -> Double? {
        guard let v = fields[key] else { return nil }
        guard let d = (v as? NSNumber)?.doubleValue, d.isFinite, abs(d) <= JSONValue.maxMagnitude else {
            throw fail(key, "a finite number", JSONValue.describe(v))
        }
        return d
    }

    /// Exactly `n` finite numbers.
    func numbers(_ key: String, _ n: Int) throws -> [Double] {
        guard let a = try array(key), a.count == n else { throw fail(key, "\(n) numbers", JSONValue.describe(fields[key])) }
        return try a.enumerated().map { i, v in
            guard let d = (v as? NSNumber)?.doubleValue, d.isFinite, abs(d) <= JSONValue.maxMagnitude else {
                throw fail("\(key)[\(i)]", "a finite number", JSONValue.describe(v))
            }
            return d
        }
    }

    /// At least `n` file names (the first `n` are returned), each a plain relative name.
    func names(_ key: String, _ n: Int) throws -> [String] {
        guard let a = try array(key), a.count >= n else {
            throw fail(key, "\(n) file name\(n > 1 ? "s" : "")", JSONValue.describe(fields[key]))
        }
        return try a.prefix(n).map { v in
            guard let s = v as? String else { throw fail(key, "file names", JSONValue.describe(v)) }
            try SOGMeta.checkName(s, field: name(key), file: file, entry: entry)
            return s
        }
    }

    /// The 256-entry `codebook`, a null first entry patched as the engine does.
    func codebook() throws -> [Float] {
        guard let a = try array("codebook"), a.count == 256 else {
            throw fail("codebook", "256 entries", JSONValue.describe(fields["codebook"]))
        }
        var v: [Double?] = try a.enumerated().map { i, x in
            if x is NSNull { return nil }
            guard let d = (x as? NSNumber)?.doubleValue, d.isFinite, abs(d) <= JSONValue.maxMagnitude else {
                throw fail("codebook[\(i)]", "a finite number", JSONValue.describe(x))
            }
            return d
        }
        if v[0] == nil, let a = v[1], let b = v[255] { v[0] = a + (a - b) / 255 }
        return try v.enumerated().map { i, x in
            guard let x else { throw fail("codebook[\(i)]", "a number", "null") }
            return Float(x)
        }
    }
}

/// Helpers for reading parsed JSON (`JSONSerialization` values) in SOG and streamed-SOG meta files.
enum JSONValue {
    /// Largest magnitude accepted for a number (keeps exp() and lerps finite).
    static let maxMagnitude = 1e30

    /// A short description of a JSON value for "found" fields.
    static func describe(_ v: Any?) -> String {
        switch v {
        case nil: return "nothing"
        case is NSNull: return "null"
        case let n as NSNumber: return "\(n)"
        case let s as String: return "a string \(s.prefix(30))"
        case let a as [Any]: return "an array of \(a.count)"
        case is [String: Any]: return "an object"
        default: return "\(type(of: v!))"
        }
    }

    /// An integer-valued JSON number, else nil.
    static func int(_ v: Any?) -> Int? { (v as? NSNumber).flatMap { exactInt($0.doubleValue) } }
}
