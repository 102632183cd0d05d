import Foundation
import JSONInput
import RenderCore

/// The camera JSON contract shared with `../shared/bench/glref`:
/// `{"width":W,"height":H,"view":[16],"projection":[16],"background":[r,g,b]}` — column-major
/// OpenGL matrices (camera looks down −Z, +Y up), projection possibly asymmetric, background
/// optional (default black, 0…1).
public enum CameraFile {
    /// Largest image side accepted (pixels).
    public static let maxSide = 16384

    /// Reads and validates a camera file.
    public static func load(_ path: String) throws -> Camera {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ViewerError.badJSON(path: path, reason: "cannot read camera file")
        }
        return try parse(data, path: path)
    }

    /// Parses camera JSON; `path` is used in error messages (`cam.json: view: expected 16
    /// numbers, found an array of 2`).
    public static func parse(_ data: Data, path: String) throws -> Camera {
        do {
            let root = try JSONNode.parse(data)
            let w = try root.required("width", "a width in pixels").integer(in: 1...maxSide)
            let h = try root.required("height", "a height in pixels").integer(in: 1...maxSide)
            let view = Matrix4(columnMajor: try root.required("view", "16 numbers").numbers(16).map(Float.init))
            let projNode = try root.required("projection", "16 numbers")
            let proj = Matrix4(columnMajor: try projNode.numbers(16).map(Float.init))
            var bg = Vec3(0, 0, 0)
            if let b = try root.optional("background")?.numbers(3) { bg = Vec3(Float(b[0]), Float(b[1]), Float(b[2])) }
            guard proj.c0.w != 0 || proj.c1.w != 0 || proj.c2.w != 0 else {
                throw projNode.fail("a perspective projection", found: "no perspective row (w is constant)")
            }
            return Camera(width: w, height: h, view: view, projection: proj, background: bg)
        } catch let e as JSONPathError {
            throw ViewerError.badJSON(path: path, reason: e.description)
        }
    }

    /// Serialises a camera in the same format.
    public static func json(_ c: Camera) -> String {
        func list(_ m: [Float]) -> String { "[" + m.map { "\($0)" }.joined(separator: ",") + "]" }
        return "{\"width\":\(c.width),\"height\":\(c.height),\"view\":\(list(c.view.columnMajor)),"
            + "\"projection\":\(list(c.projection.columnMajor)),\"background\":\(list([c.background.x, c.background.y, c.background.z]))}"
    }
}
