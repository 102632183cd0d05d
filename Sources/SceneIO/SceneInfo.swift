// SceneIO — SceneInfo: what a file holds (format, elements, counts, bounds, SH, memory, time).
import Foundation
import RenderCore

/// A summary of a loaded scene file, printable as text or JSON.
public struct SceneInfo: Sendable, Codable, Equatable {
    /// One element (PLY element, OBJ keyword, .spz block) with its count and property list.
    public struct Element: Sendable, Codable, Equatable {
        public var name: String
        public var count: Int
        /// Property declarations, e.g. "float x" or "list uchar int vertex_indices".
        public var properties: [String]
        public init(name: String, count: Int, properties: [String]) { self.name = name; self.count = count; self.properties = properties }
    }

    /// File path as given.
    public var path: String
    /// File size in bytes (for an unbundled SOG folder: meta.json plus the images read).
    public var fileBytes: Int
    /// Format family.
    public var format: SceneFormat
    /// Encoding / content, e.g. "binary_little_endian 3DGS".
    public var variant: String
    /// Version from the file ("1.0", "3", or "" when the format has none).
    public var version: String
    /// "mesh", "splats", "points" or "mesh+splats" (a glTF holding both: `count` splats and `triangles`).
    public var kind: String
    public var elements: [Element]
    /// Vertices (meshes), splats or points.
    public var count: Int
    /// Triangles (meshes only, else 0).
    public var triangles: Int
    /// SH degree kept (splats only, else nil): 0…4; the renderers evaluate bands 0–3.
    public var shDegree: Int?
    /// Whether the file says its splats were trained for antialiased (Mip-Splatting style)
    /// rendering — `.spz` flag 0x1; nil when the format carries no such flag. A viewer should turn
    /// the renderer's antialias compensation on when this is true, unless the user says otherwise.
    public var antialiased: Bool?
    /// The render mode the file names (PLY `comment SplatRenderMode: default|mip|2dgs`, or `2dgs` for
    /// a 3DGS PLY without `scale_2`); nil when it names none. `mip` sets `antialiased`; `2dgs`
    /// splats are loaded as flat surfels (`SplatRenderMode.flattenSurfels`).
    public var renderMode: SplatRenderMode?
    /// Things the reader skipped or assumed, one line each naming the file and where, e.g.
    /// `a.ply: line 3: skipped unknown header line "Created by Blender3D 247 - …"`. Empty for a
    /// clean file. The load itself succeeded.
    public var warnings: [String]
    /// Bounds of the positions (nil when empty), in the loaded frame.
    public var boundsMin: [Float]?
    public var boundsMax: [Float]?
    /// Bytes held by the loaded arrays.
    public var bytesInMemory: Int
    /// Wall-clock load time in seconds.
    public var loadSeconds: Double
    /// A streamed SOG: the memory drawing it needs at a splat budget, one line (set by the caller
    /// that knows the renderer, e.g. `info`); nil otherwise.
    public var drawMemory: String?
    /// The same, bytes besides the chunk cache's bound.
    public var drawMemoryBytes: Int?

    init(path: String, fileBytes: Int, result r: ReadResult, seconds: Double) {
        self.path = path; self.fileBytes = r.sourceBytes ?? fileBytes; format = r.format; variant = r.variant; version = r.version
        elements = r.elements; loadSeconds = seconds; bytesInMemory = r.scene.bytesInMemory
        antialiased = r.antialiased; renderMode = r.renderMode; warnings = r.warnings
        switch r.scene {
        case .mesh(let m): kind = "mesh"; count = m.vertexCount; triangles = m.triangleCount; shDegree = nil
        case .splats(let s): kind = "splats"; count = s.count; triangles = 0; shDegree = s.shDegree
        case .points(let p): kind = "points"; count = p.count; triangles = 0; shDegree = nil
        case let .mixed(m, s): kind = "mesh+splats"; count = s.count; triangles = m.triangleCount; shDegree = s.shDegree
        }
        let b = r.scene.bounds
        if b.isEmpty { boundsMin = nil; boundsMax = nil } else { boundsMin = [b.min.x + 0, b.min.y + 0, b.min.z + 0]; boundsMax = [b.max.x + 0, b.max.y + 0, b.max.z + 0] }
    }

    /// A streamed SOG described from its metadata: `count` is level 0's splats, the elements are
    /// the levels, nothing is decoded (`bytesInMemory` 0).
    init(path: String, streamed sog: StreamedSOG, seconds: Double) {
        self.path = path; fileBytes = sog.fileBytes; format = .sog; variant = sog.variant
        version = sog.version.map(String.init) ?? ""; kind = "splats"; elements = sog.elements
        count = sog.splatCount(level: 0); triangles = 0; shDegree = sog.shDegree; antialiased = nil; renderMode = nil
        warnings = sog.warnings; bytesInMemory = 0; loadSeconds = seconds
        let b = sog.bounds
        if b.isEmpty { boundsMin = nil; boundsMax = nil } else { boundsMin = [b.min.x + 0, b.min.y + 0, b.min.z + 0]; boundsMax = [b.max.x + 0, b.max.y + 0, b.max.z + 0] }
    }

    /// Human-readable multi-line summary.
    public var text: String {
        var s = "\(path)\n"
        s += "  format:   \(format.rawValue) \(variant)\(version.isEmpty ? "" : " version \(version)")\n"
        s += "  content:  \(count) \(kind == "mesh" ? "vertices, \(triangles) triangles" : kind == "mesh+splats" ? "splats and \(triangles) mesh triangles" : kind)"
        if let d = shDegree { s += ", SH degree \(d)\(d > 3 ? " (bands 0–3 rendered)" : "")" }
        if antialiased == true { s += ", antialiased" }
        if renderMode == .twoD { s += ", 2D Gaussian surfels (2dgs)" }
        s += "\n"
        if let lo = boundsMin, let hi = boundsMax {
            func f(_ v: [Float]) -> String { v.map { String(format: "%.4g", $0) }.joined(separator: ", ") }
            s += "  bounds:   (\(f(lo))) … (\(f(hi)))\n"
        }
        if variant.hasPrefix("streamed SOG") && bytesInMemory == 0 {
            // Described from lod-meta.json and the chunks' meta.json: nothing decoded.
            s += "  file:     \(fileBytes) bytes (lod-meta.json and its chunks); no chunk decoded\n"
            if let drawMemory { s += "  to draw:  \(drawMemory)\n" }
            s += String(format: "  metadata read in %.3f s\n", loadSeconds)
        } else {
            s += "  file:     \(fileBytes) bytes; in memory \(bytesInMemory) bytes\n"
            let mbps = loadSeconds > 0 ? Double(fileBytes) / loadSeconds / 1e6 : 0
            s += String(format: "  loaded in %.3f s (%.0f MB/s)\n", loadSeconds, mbps)
        }
        for e in elements {
            s += "  element \(e.name) \(e.count)\n"
            for p in e.properties.prefix(100) { s += "    \(p)\n" }
            if e.properties.count > 100 { s += "    … \(e.properties.count - 100) more\n" }
        }
        for w in warnings { s += "  warning:  \(w)\n" }
        return s
    }

    /// Pretty-printed JSON (keys sorted).
    public var json: String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let d = try? enc.encode(self) else { return "{}" }
        return String(decoding: d, as: UTF8.self)
    }
}
