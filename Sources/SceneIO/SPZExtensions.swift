// SceneIO — SPZExtensions: the extension records of an .spz (header flag 0x2).
//
// Facts (nianticlabs/spz extensions/README.md, splat-extensions.cc): records are
// `[u32 type][u32 byteLength][payload]`, little-endian, back to back; in v4 they fill bytes
// [32, tocByteOffset) of the file, in v2/v3 they follow the SH block inside the gzip stream.
// Types: 0xADBE0002 SPZ_ADOBE_safe_orbit_camera (camera limits, no effect on the splats),
// 0xADBE0003 SPZ_ADOBE_coordinate_system (u32 CoordinateSystem 0…16: the frame the splats are
// stored in; 0 = unspecified, read as RUB). Unknown types are skipped by their length.

/// What the extension records of one file say.
struct SPZExtensions {
    static let safeOrbitCamera: UInt32 = 0xADBE_0002
    static let coordinateSystemType: UInt32 = 0xADBE_0003

    /// The storage frame an SPZ_ADOBE_coordinate_system record names; nil without one (RUB).
    var coordinateSystem: SPZCoordinateSystem?
    /// Byte offset of that record (for messages).
    var coordinateSystemOffset = 0
    /// One line per record, for `SceneInfo` (e.g. "SPZ_ADOBE_coordinate_system RDF (4 bytes)").
    var records: [String] = []
    /// Records skipped or read with an assumption.
    var warnings: [String] = []

    /// Most unknown records listed one by one.
    static let maxListed = 20

    /// Parses the records in `v[start..<end]`.
    /// - Parameter inflated: the bytes are the inflated gzip stream (offsets are said to be so).
    /// - Throws: `SceneIOError.badBytes` for a record running past the block or a coordinate
    ///   system outside 0…16 (never a silently wrong frame).
    static func parse(_ v: ByteView, from start: Int, to end: Int, inflated: Bool) throws -> SPZExtensions {
        let file = v.file
        let at = inflated ? " of the inflated stream" : ""
        var out = SPZExtensions()
        var o = start
        var seenCoordinateSystem = false
        var unknown = 0
        while end - o >= 8 {
            let type = v.u32(o), length = Int(v.u32(o + 4))
            let payload = o + 8
            guard length <= end - payload else {
                throw SceneIOError.badBytes(file: file, offset: o + 4, expected: "an extension record within the \(end - payload) bytes left\(at)",
                                            found: "\(length) bytes")
            }
            let hex = "0x" + String(type, radix: 16, uppercase: true)
            switch type {
            case coordinateSystemType:
                guard length >= 4 else {
                    throw SceneIOError.badBytes(file: file, offset: o + 4, expected: "a 4-byte SPZ_ADOBE_coordinate_system payload\(at)", found: "\(length) bytes")
                }
                let raw = v.u32(payload)
                if seenCoordinateSystem {
                    out.warnings.append("\(file): byte \(o)\(at): a second SPZ_ADOBE_coordinate_system record ignored (the first one counts)")
                } else if raw == 0 {
                    seenCoordinateSystem = true
                    out.warnings.append("\(file): byte \(payload)\(at): SPZ_ADOBE_coordinate_system is 0 (unspecified); read as RUB")
                    out.records.append("SPZ_ADOBE_coordinate_system unspecified (RUB)")
                } else if let cs = SPZCoordinateSystem(raw: raw) {
                    seenCoordinateSystem = true
                    out.coordinateSystem = cs
                    out.coordinateSystemOffset = o
                    out.records.append("SPZ_ADOBE_coordinate_system \(cs.name)")
                } else {
                    throw SceneIOError.badBytes(file: file, offset: payload, expected: "an SPZ_ADOBE_coordinate_system value 0…16\(at)", found: "\(raw)")
                }
            case safeOrbitCamera:
                if out.records.count < 2 * maxListed { out.records.append("SPZ_ADOBE_safe_orbit_camera (\(length) bytes, not used)") }
            default:
                unknown += 1
                if unknown <= maxListed {
                    out.records.append("unknown \(hex) (\(length) bytes, skipped)")
                    out.warnings.append("\(file): byte \(o)\(at): skipped unknown .spz extension \(hex) (\(length) bytes)")
                }
            }
            o = payload + length
        }
        if unknown > maxListed {
            out.warnings.append("\(file): \(unknown - maxListed) more unknown .spz extensions skipped")
        }
        if o < end {
            out.warnings.append("\(file): byte \(o)\(at): ignored \(end - o) bytes after the last extension record")
        }
        return out
    }
}
