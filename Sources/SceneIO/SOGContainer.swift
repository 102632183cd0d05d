// SceneIO — SOGContainer: where a SOG's files come from (ZIP entries or a folder's files).
//
// Contract: `read` returns a member's bytes or throws `SceneIOError.badEntry` naming the
// container and the member; it never returns more than `cap` bytes and checks the size
// before reading.
import Foundation

/// The files of one SOG, looked up by the names its `meta.json` uses.
protocol SOGContainer {
    /// The container's name in errors: the `.sog` path or the folder.
    var file: String { get }
    /// The bytes of member `name`, at most `cap` of them.
    func read(_ name: String, cap: Int) throws -> Data
}

extension ZipArchive: SOGContainer {}

/// An unbundled SOG: a folder holding `meta.json` and the images it names.
struct SOGFolder: SOGContainer {
    /// The folder's path as given.
    let file: String

    func read(_ name: String, cap: Int) throws -> Data {
        func fail(_ expected: String, _ found: String) -> SceneIOError {
            .badEntry(file: file, entry: name, expected: expected, found: found)
        }
        let path = (file as NSString).appendingPathComponent(name)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw fail("a file in the SOG folder", "no such file") }
        guard !isDir.boolValue else { throw fail("a file", "a folder") }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= cap else { throw fail("at most \(cap) bytes", "\(size) bytes") }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            throw fail("a readable file", error.localizedDescription)
        }
        guard data.count <= cap else { throw fail("at most \(cap) bytes", "\(data.count) bytes") }
        return data
    }
}
