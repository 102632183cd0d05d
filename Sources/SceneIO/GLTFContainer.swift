// SceneIO — GLTFContainer: a glTF 2.0 asset's JSON and its buffers, from a `.glb` (binary
// container: header, JSON chunk, BIN chunk) or a `.gltf` (JSON whose buffers are `data:` URIs or
// files beside it).
//
// Contract: after `parse`, `json` is the document's root object and `buffers[i]` holds at least
// `buffers[i].byteLength` bytes (checked here, so accessors only check against the declared
// lengths). Nothing is allocated in proportion to a number the file states: a GLB's BIN chunk is
// used in place, `data:` URIs are decoded from their own text, and a file beside the `.gltf` is
// read only when it exists and is at least as long as declared. Every refusal is one line naming
// the file and the byte offset or JSON path.
import Foundation
import JSONInput

/// The JSON document of a glTF asset and the bytes of its buffers.
struct GLTFContainer {
    /// The document's root object.
    var json: JSONNode
    /// Each `buffers[i]`'s bytes, at least as many as its `byteLength`.
    var buffers: [Data]
    /// "glb" or "gltf" (for `info`).
    var kind: String
    /// The file's name, for errors.
    var file: String

    static let glbMagic: UInt32 = 0x4654_6C67      // "glTF"
    static let chunkJSON: UInt32 = 0x4E4F_534A     // "JSON"
    static let chunkBIN: UInt32 = 0x004E_4942      // "BIN\0"
    /// Largest JSON chunk or `.gltf` document read (bytes): 256 MB.
    static let maxJSONBytes = 256 << 20

    /// Parses the container. `directory` is where a `.gltf`'s external buffers are looked for
    /// (nil: bytes in memory, which cannot name files). The GLB's BIN chunk is not copied: the
    /// container must not outlive `view`'s bytes. When `wanted` answers false for the parsed
    /// document, no buffer is read and the answer is nil.
    static func parse(_ view: ByteView, directory: String?, wanted: (JSONNode) -> Bool = { _ in true }) throws -> GLTFContainer? {
        let file = view.file
        let (jsonData, binChunk, kind) = try chunks(view)
        do {
            let root = try JSONNode.parse(jsonData)
            _ = try root.members()
            guard wanted(root) else { return nil }
            let buffers = try root.optional("buffers")?.array() ?? []
            var out: [Data] = []
            for (i, b) in buffers.enumerated() {
                let length = try b.required("byteLength", "a length in bytes").integer(in: 0...Int(Int32.max) * 64, "a length in bytes")
                let data: Data
                if let uriNode = try b.optional("uri") {
                    data = try external(try uriNode.string("a URI"), node: uriNode, directory: directory, file: file)
                } else if i == 0, let binChunk {
                    data = binChunk
                } else {
                    throw b.fail("a uri (only buffer 0 of a .glb may use the BIN chunk)", found: kind == "glb" ? "no uri and no BIN chunk for it" : "no uri")
                }
                guard data.count >= length else {
                    throw b.fail("at least byteLength \(length) bytes of data", found: "\(data.count)")
                }
                out.append(data)
            }
            return GLTFContainer(json: root, buffers: out, kind: kind, file: file)
        } catch let e as JSONPathError {
            throw e.sceneIOError(file: file, entry: kind == "glb" ? "JSON chunk" : "JSON")
        }
    }

    /// The JSON text, a GLB's BIN chunk (in place) and "glb" or "gltf".
    static func chunks(_ view: ByteView) throws -> (json: Data, bin: Data?, kind: String) {
        let file = view.file
        var binChunk: Data?
        let jsonData: Data
        let kind: String
        if view.count >= 4 && view.u32(0) == glbMagic {
            kind = "glb"
            try view.need(0, 12, "a 12-byte GLB header")
            let version = view.u32(4)
            guard version == 2 else {
                throw SceneIOError.badBytes(file: file, offset: 4, expected: "GLB version 2", found: "\(version)")
            }
            let total = Int(view.u32(8))
            guard total <= view.count else {
                throw SceneIOError.truncated(file: file, offset: view.count, expected: "\(total) bytes as the GLB header says")
            }
            var o = 12
            var json: Data?
            while o + 8 <= total {
                let length = Int(view.u32(o)), type = view.u32(o + 4)
                guard length <= total - o - 8 else {
                    throw SceneIOError.truncated(file: file, offset: o, expected: "a chunk of \(length) bytes")
                }
                let start = view.bytes.baseAddress!.advanced(by: o + 8)
                if type == chunkJSON && json == nil {
                    guard length <= maxJSONBytes else {
                        throw SceneIOError.tooLarge(file: file, offset: o, expected: "a JSON chunk of at most \(maxJSONBytes) bytes", found: "\(length)")
                    }
                    json = Data(bytes: start, count: length)
                } else if type == chunkBIN && binChunk == nil && json != nil {
                    binChunk = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: length, deallocator: .none)
                }
                o += 8 + length
                o = (o + 3) & ~3
            }
            guard let json else {
                throw SceneIOError.badBytes(file: file, offset: 12, expected: "a JSON chunk first", found: view.sample(12, 8))
            }
            jsonData = json
        } else {
            kind = "gltf"
            guard view.count <= maxJSONBytes else {
                throw SceneIOError.tooLarge(file: file, offset: 0, expected: "a .gltf of at most \(maxJSONBytes) bytes", found: "\(view.count)")
            }
            jsonData = view.count == 0 ? Data() : Data(bytes: view.bytes.baseAddress!, count: view.count)
        }
        return (jsonData, binChunk, kind)
    }

    /// A `.glb` holding `json` and (when not nil) the binary chunk `bin`, each padded to 4 bytes.
    static func glb(json: [UInt8], bin: [UInt8]?) -> [UInt8] {
        var j = json
        while j.count % 4 != 0 { j.append(0x20) }
        let padded = bin.map { $0 + [UInt8](repeating: 0, count: (4 - $0.count % 4) % 4) }
        var out: [UInt8] = []
        out.reserveCapacity(28 + j.count + (padded?.count ?? 0))
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
        u32(Int(glbMagic)); u32(2); u32(12 + 8 + j.count + (padded.map { 8 + $0.count } ?? 0))
        u32(j.count); u32(Int(chunkJSON)); out += j
        if let padded { u32(padded.count); u32(Int(chunkBIN)); out += padded }
        return out
    }

    /// The parsed JSON document alone (no buffers read); nil when it is not JSON.
    static func document(_ view: ByteView) throws -> JSONNode? {
        try? JSONNode.parse(chunks(view).json)
    }

    /// A buffer named by a URI: base64 `data:` text, or a file relative to `directory`.
    static func external(_ uri: String, node: JSONNode, directory: String?, file: String) throws -> Data {
        if uri.hasPrefix("data:") {
            guard let comma = uri.firstIndex(of: ","), uri[..<comma].hasSuffix(";base64"),
                  let d = Data(base64Encoded: String(uri[uri.index(after: comma)...])) else {
                throw node.fail("a base64 data: URI", found: "malformed data")
            }
            return d
        }
        guard let directory else {
            throw node.fail("an embedded buffer (bytes in memory cannot name other files)", found: JSONNode.describe(uri))
        }
        let name = uri.removingPercentEncoding ?? uri
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("://"), !name.utf8.contains(0) else {
            throw node.fail("a relative file name", found: JSONNode.describe(uri))
        }
        let path = (directory as NSString).appendingPathComponent(name)
        guard let d = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw node.fail("a readable buffer file beside the .gltf", found: "no such file \(path)")
        }
        return d
    }

    /// The document's extension names listed under `key` (`extensionsUsed`, `extensionsRequired`).
    func extensionList(_ key: String) throws -> [String] {
        do {
            return try json.optional(key)?.array().map { try $0.string("an extension name") } ?? []
        } catch let e as JSONPathError {
            throw e.sceneIOError(file: file, entry: kind == "glb" ? "JSON chunk" : "JSON")
        }
    }
}
