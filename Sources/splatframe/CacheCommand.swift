// CacheCommand — `splatframe cache [clear [--lod|--downloads]]`: the two caches the window keeps
// under $XDG_CACHE_HOME/splatframe (level-of-detail trees of plain captures, downloads) listed
// with each entry's source, size and last use against their bounds, or cleared.
import ArgumentParser
import Downloads
import Foundation
import SplatLOD

/// `splatframe cache` (lists) and `splatframe cache clear`.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "List the level-of-detail and download caches (source, size, last use, totals against their bounds), or clear them.",
        subcommands: [CacheListCommand.self, CacheClearCommand.self],
        defaultSubcommand: CacheListCommand.self)
}

/// Where the caches are: `--cache-dir`, else `$XDG_CACHE_HOME`, else `~/.cache`; their bounds.
struct CacheLocation: ParsableArguments {
    @Option(name: .customLong("cache-dir"),
            help: ArgumentHelp("Cache home to use instead of $XDG_CACHE_HOME (else ~/.cache): its splatframe/lod and splatframe/downloads.", valueName: "dir"))
    var cacheDir: String?
    @OptionGroup var configOption: ConfigOption

    /// The cache home's environment: `--cache-dir` as `XDG_CACHE_HOME`, else the process's.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        if let cacheDir { env["XDG_CACHE_HOME"] = cacheDir }
        return env
    }

    /// The level-of-detail cache at its default bound (the window's; `--lod-cache-limit-mb` is per run).
    func lod() throws -> LODCache {
        guard let folder = LODCache.defaultFolder(environment: environment) else { throw Self.noHome }
        return LODCache(folder: folder)
    }

    /// The download cache with the config file's bound (`downloadCacheLimitMB`), else the default.
    func downloads() throws -> DownloadCache {
        guard let folder = DownloadOptions.defaultCacheFolder(environment: environment) else { throw Self.noHome }
        let mb = try configOption.interactive().file?.downloadCacheLimitMB
        return DownloadCache(folder: folder, limitBytes: mb.map { Int64($0) << 20 } ?? DownloadCache.defaultLimitBytes)
    }

    static let noHome = OptionError("--cache-dir", "", "neither XDG_CACHE_HOME nor HOME is set: name the cache home")

    /// Megabytes with one decimal.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }

    /// A last use as local date and minute.
    static func date(_ seconds: Double) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: Date(timeIntervalSince1970: seconds))
    }
}

/// `splatframe cache [list]`: both caches, least recently used first.
struct CacheListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List both caches (the default).")

    @OptionGroup var location: CacheLocation

    func run() throws {
        let lod = try location.lod(), downloads = try location.downloads()
        let trees = lod.list()
        print("level-of-detail trees: \(lod.folder)")
        for e in trees {
            print("  \(e.name)  \(CacheLocation.megabytes(e.bytes).leftPadded(10))  \(CacheLocation.date(e.lastUse))  \(e.source)")
        }
        print("  \(Self.count(trees.count, "tree")), \(CacheLocation.megabytes(trees.reduce(0) { $0 + $1.bytes })) of \(lod.limitBytes >> 20) MB")
        for p in lod.partialBuilds() {
            print("  \(p.key)  \(CacheLocation.megabytes(p.bytes).leftPadded(10))  \(CacheLocation.date(p.lastUse))  \(p.source) "
                  + "(a build stopped part way, kept \(Int(LODCache.abandonedBuildAge / 86400)) days for a resume)")
        }
        let files = downloads.list()
        print("downloads: \(downloads.folder)")
        for e in files {
            let partial = e.complete ? "" : " (partial, kept for a resume)"
            print("  \(e.name)  \(CacheLocation.megabytes(e.bytes).leftPadded(10))  \(CacheLocation.date(e.lastUse))  \(e.source)\(partial)")
        }
        print("  \(Self.count(files.count, "download")), \(CacheLocation.megabytes(files.reduce(0) { $0 + $1.bytes })) of \(downloads.limitBytes >> 20) MB")
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

/// `splatframe cache clear [--lod|--downloads]`.
struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear",
        abstract: "Remove the cached level-of-detail trees and downloads (both unless --lod or --downloads), printing what was freed.")

    @OptionGroup var location: CacheLocation
    @Flag(help: "Clear only the level-of-detail trees.") var lod = false
    @Flag(help: "Clear only the downloads.") var downloads = false

    func run() throws {
        let both = lod == downloads
        if both || lod {
            let cache = try location.lod()
            let removed = cache.clear()
            print("level-of-detail trees: freed \(CacheLocation.megabytes(removed.reduce(0) { $0 + $1.bytes })) "
                  + "(\(CacheListCommand.count(removed.count, "tree"))) in \(cache.folder)")
        }
        if both || downloads {
            let cache = try location.downloads()
            let (removed, inUse) = cache.clear()
            print("downloads: freed \(CacheLocation.megabytes(removed.reduce(0) { $0 + $1.bytes })) "
                  + "(\(CacheListCommand.count(removed.count, "download"))) in \(cache.folder)")
            for e in inUse { print("  kept \(e.source): a download of it is in progress") }
        }
    }
}

extension String {
    /// Right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
