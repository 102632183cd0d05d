import Foundation
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

    /// Parses camera JSON; `path` is used in error messages.
    public static func parse(_ data: Data, path: String) throws -> Camera {
        let obj: Any
        do { obj = try JSONSerialization.jsonObject(with: data) } catch {
            throw ViewerError.badJSON(path: path, reason: "not valid JSON (\(Self.jsonErrorDetail(error)))")
        }
        guard let dict = obj as? [String: Any] else {
            throw ViewerError.badJSON(path: path, reason: "expected a JSON object at the top level")
        }
        func int(_ key: String) throws -> Int {
            guard let n = dict[key] as? NSNumber, let v = Int(exactly: n.doubleValue) else {
                throw ViewerError.badJSON(path: path, reason: "\"\(key)\" must be a whole number")
            }
            guard v >= 1, v <= maxSide else {
                throw ViewerError.badJSON(path: path, reason: "\"\(key)\" must be 1…\(maxSide), found \(v)")
            }
            return v
        }
        func numbers(_ key: String, count: Int) throws -> [Float] {
            guard let arr = dict[key] as? [Any] else {
                throw ViewerError.badJSON(path: path, reason: "\"\(key)\" must be an array of \(count) numbers")
            }
            guard arr.count == count else {
                throw ViewerError.badJSON(path: path, reason: "\"\(key)\" has \(arr.count) numbers, expected \(count)")
            }
            return try arr.enumerated().map { i, v in
                guard let n = v as? NSNumber, !CameraFile.isBoolean(v), n.doubleValue.isFinite else {
                    throw ViewerError.badJSON(path: path, reason: "\"\(key)\"[\(i)] is not a finite number")
                }
                return Float(n.doubleValue)
            }
        }
        let w = try int("width"), h = try int("height")
        let view = Matrix4(columnMajor: try numbers("view", count: 16))
        let proj = Matrix4(columnMajor: try numbers("projection", count: 16))
        var bg = Vec3(0, 0, 0)
        if dict["background"] != nil {
            let b = try numbers("background", count: 3)
            bg = Vec3(b[0], b[1], b[2])
        }
        guard proj.c0.w != 0 || proj.c1.w != 0 || proj.c2.w != 0 else {
            throw ViewerError.badJSON(path: path, reason: "\"projection\" has no perspective row (w is constant)")
        }
        return Camera(width: w, height: h, view: view, projection: proj, background: bg)
    }

    /// Serialises a camera in the same format.
    public static func json(_ c: Camera) -> String {
        func list(_ m: [Float]) -> String { "[" + m.map { "\($0)" }.joined(separator: ",") + "]" }
        return "{\"width\":\(c.width),\"height\":\(c.height),\"view\":\(list(c.view.columnMajor)),"
            + "\"projection\":\(list(c.projection.columnMajor)),\"background\":\(list([c.background.x, c.background.y, c.background.z]))}"
    }

    /// JSON `true`/`false` (which bridge to NSNumber) are not numbers here.
    static func isBoolean(_ v: Any) -> Bool {
        let s = String(describing: v)
        return s == "true" || s == "false"
    }

    static func jsonErrorDetail(_ error: Error) -> String {
        let ns = error as NSError
        if let d = ns.userInfo["NSDebugDescription"] as? String { return d }
        return ns.localizedDescription
    }
}
