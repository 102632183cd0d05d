// Fuzz harness (sog): bytes that start like a ZIP go to the bundled reader; anything else is a
// virtual unbundled folder read from memory (no files): meta.json, then the files it names separated
// by "\n--sog--\n", in the order the meta names them (means_l, means_u, quats, scales, sh0, then the
// SH palette's two images or splatframe's one file of SH rows). Small limits keep each run's memory low
// (a 2^18-texel image is 1 MB of RGBA), so an allocation past them is a finding.
import Foundation

let sogLimits = SOGReader.Limits(maxTexels: 1 << 18, maxEntryBytes: 1 << 20, maxMetaBytes: 1 << 20)
let sogSeparator = Array("\n--sog--\n".utf8)

/// An unbundled SOG whose members live in memory.
struct MemoryFolder: SOGContainer {
    let file = "fuzz-folder"
    let members: [String: Data]
    func read(_ name: String, cap: Int) throws -> Data {
        guard let d = members[name] else { throw SceneIOError.badEntry(file: file, entry: name, expected: "a member", found: "no such member") }
        guard d.count <= cap else { throw SceneIOError.badEntry(file: file, entry: name, expected: "at most \(cap) bytes", found: "\(d.count)") }
        return d
    }
}

/// Splits bytes at every separator.
func splitParts(_ b: UnsafeRawBufferPointer) -> [Data] {
    var parts: [Data] = [], start = 0, i = 0
    let n = sogSeparator.count
    while i + n <= b.count {
        if b[i] == sogSeparator[0] && zip(b[i..<(i + n)], sogSeparator).allSatisfy({ $0 == $1 }) {
            parts.append(Data(b[start..<i])); i += n; start = i
        } else { i += 1 }
    }
    parts.append(Data(b[start..<b.count]))
    return parts
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    if SOGReader.isZip(raw) {
        _ = try? SOGReader.readBundled(ByteView(bytes: raw, file: "fuzz.sog"), limits: sogLimits, progress: nil)
        return 0
    }
    let parts = splitParts(raw)
    guard let meta = try? SOGMeta.parse(parts[0], file: "fuzz-folder") else { return 0 }
    var members: [String: Data] = [:]
    let names = [meta.meansLower, meta.meansUpper, meta.quatsFile, meta.scalesFile, meta.sh0File] + (meta.sh?.files ?? [])
    for (name, part) in zip(names, parts.dropFirst()) { members[name] = part }
    _ = try? SOGReader.decode(meta, from: MemoryFolder(members: members), variant: "fuzz", metaBytes: nil,
                              limits: sogLimits, progress: nil)
    return 0
}
