import Foundation

/// The program's live threads as the kernel lists them (`/proc/self/task/*/comm`): a thread is
/// gone from here only once it has really exited, whatever its owner believes.
enum ThreadNames {
    /// Live threads whose name starts with `prefix`.
    static func live(prefix: String) -> Int {
        #if os(Linux)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.reduce(0) { n, task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return n + (comm.hasPrefix(prefix) ? 1 : 0)
        }
        #else
        return 0
        #endif
    }

    /// A thread-name prefix no other test uses (Linux keeps 15 bytes of a name: keep it short).
    static func unique(_ tag: String) -> String {
        "\(tag)\(UInt32.random(in: 0..<100_000))."
    }
}
