// RenderCore — RegularFile: a regular file's size from one `stat`, without Foundation's
// `attributesOfItem`, which on Linux also looks up the owner's and group's names (opening
// /etc/passwd and /etc/group on every call: 1,800 opens for a 129-chunk tree's sizes).
import Foundation

/// Questions about a regular file answered by one `stat` call.
public enum RegularFile {
    /// The size in bytes of the regular file at `path` (links followed); nil when there is no
    /// such file or it is a folder, a device or a pipe.
    public static func bytes(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// Bytes of the regular files directly in `folder` (0 when it does not exist).
    public static func bytes(inFolder folder: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).reduce(0) { $0 + (bytes(folder + "/" + $1) ?? 0) }
    }
}
