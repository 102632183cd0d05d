// Downloads — fetching a scene someone posted online: one HTTPS file into a cache keyed by its
// URL, revalidated, resumable, bounded in size and time (libcurl underneath).
import Foundation

/// How a download may go.
public struct DownloadOptions: Sendable, Equatable {
    /// The cache folder (entries are `KEY/NAME` with `entry.json`), or nil for a private temporary
    /// folder the caller removes (`DownloadResult.temporaryFolder`): render, bench and export
    /// touch no cache unless a flag names one.
    public var cacheFolder: String?
    /// Most bytes the cache folder's downloads may hold together (default 10 GiB): least recently
    /// used ones go when a download would pass it (`DownloadCache`).
    public var cacheLimitBytes: Int64 = DownloadCache.defaultLimitBytes
    /// Largest file accepted, bytes (default 2048 MB); a larger one is `DownloadError.tooLarge`.
    public var maxBytes: Int64 = 2048 << 20
    /// Plain `http://` allowed; otherwise only HTTPS, redirects included (`DownloadError.insecureScheme`,
    /// `.insecureRedirect`).
    public var allowHTTP = false
    /// Longest wait for a connection, seconds.
    public var connectTimeout: Double = 20
    /// A transfer slower than 100 bytes/s for this long is stopped, seconds.
    public var stallTimeout: Double = 30
    /// Longest a whole transfer may take, seconds.
    public var totalTimeout: Double = 4 * 3600
    /// Most redirects followed.
    public var maxRedirects = 5
    /// Certificate authorities to trust instead of the system's (PEM file), for tests' servers; nil: the system's.
    public var caFile: String?

    public init(cacheFolder: String?) { self.cacheFolder = cacheFolder }

    /// The window's cache: `$XDG_CACHE_HOME/splatframe/downloads` (else `~/.cache/…`).
    public static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let x = environment["XDG_CACHE_HOME"], !x.isEmpty { return x + "/splatframe/downloads" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.cache/splatframe/downloads" }
        return nil
    }
}

/// A finished download.
public struct DownloadResult: Sendable {
    /// The downloaded file.
    public var path: String
    /// Served from the cache: unchanged on the server (304), or the server could not be asked.
    public var fromCache: Bool
    /// A note for the user (e.g. the cached copy used because the server could not be reached).
    public var note: String?
    /// The folder to remove when done, for downloads without a cache.
    public var temporaryFolder: String?
}
