// Downloads — Downloader: a URL to a local file through the download cache.
//
// Contract: an entry (`KEY/NAME` + `entry.json`, KEY = the URL's stable hash) exists only for a
// whole file: bytes arrive in `NAME.part` (kept, with `part.json`, for a later resume when the
// server gave validators) and are renamed into place before `entry.json` is written. A cached
// entry is revalidated (If-None-Match / If-Modified-Since); when the server cannot be reached the
// cached copy is used with a note. One process at a time works on an entry (flock on `.lock`).
// The cache is bounded (`DownloadCache`): every fetch marks its entry used; least recently used
// entries not in use go when a download's announced size would pass the bound, and again once it
// is whole.
// Every failure is a `DownloadError` naming the URL (one line, no command-line flag).
import CCurl
import Foundation
import RenderCore

public enum Downloader {
    /// True for `http://` and `https://` URLs (case-insensitive scheme).
    public static func isURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The file name a URL is saved under: its path's last component, percent-decoded, with
    /// anything but letters, digits, `.`, `-` and `_` replaced (at most 100 characters).
    public static func fileName(for url: String) -> String {
        let path = URLComponents(string: url)?.path ?? ""
        let last = (path.removingPercentEncoding ?? path).split(separator: "/").last.map(String.init) ?? ""
        var name = String(last.unicodeScalars.map { s -> Character in
            CharacterSet.alphanumerics.contains(s) && s.isASCII || s == "." || s == "-" || s == "_" ? Character(s) : "_"
        }).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        if name.count > 100 { name = String(name.suffix(100)) }
        return name.isEmpty ? "download" : name
    }

    /// Downloads `url` (or finds it in the cache).
    /// - Parameters:
    ///   - progress: (bytes so far, total when known), from the transfer's thread.
    ///   - cancelled: polled during the transfer; true stops it (`DownloadError.cancelled`).
    public static func fetch(_ url: String, options: DownloadOptions, progress: ((Int64, Int64?) -> Void)? = nil,
                             cancelled: (() -> Bool)? = nil) throws -> DownloadResult {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty else {
            throw DownloadError.notAURL(url: url)
        }
        if scheme == "http" && !options.allowHTTP {
            throw DownloadError.insecureScheme(url: url, scheme: scheme)
        }
        let fm = FileManager.default
        var temporary: String?
        let root: String
        if let folder = options.cacheFolder {
            root = folder
        } else {
            root = fm.temporaryDirectory.appendingPathComponent("splatframe-download-\(getpid())-\(UUID().uuidString)").path
            temporary = root
        }
        let folder = (root as NSString).appendingPathComponent(StableHash.hex(url))
        let lock = try lockEntry(folder, url: url)
        defer { close(lock) }
        do {
            var result = try fetchLocked(url, folder: folder, options: options, progress: progress, cancelled: cancelled)
            result.temporaryFolder = temporary
            return result
        } catch {
            if let temporary { try? fm.removeItem(atPath: temporary) }
            throw error
        }
    }

    /// Makes the entry folder and takes its `.lock` (waiting for another fetch of the same URL);
    /// an entry the cache's bound removed while this waited is made again. Returns the descriptor.
    static func lockEntry(_ folder: String, url: String) throws -> Int32 {
        for _ in 0..<8 {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw DownloadError.failed(url: url, reason: "cannot make the download folder \(folder): \(error.localizedDescription)")
            }
            let lock = open((folder as NSString).appendingPathComponent(".lock"), O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            guard lock >= 0 else { throw DownloadError.failed(url: url, reason: "cannot lock \(folder): \(String(cString: strerror(errno)))") }
            flock(lock, LOCK_EX)
            var st = stat()
            if fstat(lock, &st) == 0, st.st_nlink > 0 { return lock }
            close(lock)   // removed by an eviction while we waited: start again
        }
        throw DownloadError.failed(url: url, reason: "the download folder \(folder) keeps being removed")
    }

    static func fetchLocked(_ url: String, folder: String, options: DownloadOptions, progress: ((Int64, Int64?) -> Void)?,
                            cancelled: (() -> Bool)?) throws -> DownloadResult {
        let fm = FileManager.default
        let entryPath = (folder as NSString).appendingPathComponent("entry.json")
        let partInfoPath = (folder as NSString).appendingPathComponent("part.json")
        let cached = DownloadEntry.read(entryPath).flatMap { e -> DownloadEntry? in
            let size = RegularFile.bytes((folder as NSString).appendingPathComponent(e.name)).map(Int64.init)
            return e.url == url && size == e.size ? e : nil
        }
        if cached == nil { try? fm.removeItem(atPath: entryPath) }
        let name = cached?.name ?? fileName(for: url)
        let finalPath = (folder as NSString).appendingPathComponent(name)
        let partPath = finalPath + ".part"
        var headers: [String] = []
        var existing: Int64 = 0
        let cache = options.cacheFolder.map { DownloadCache(folder: $0, limitBytes: options.cacheLimitBytes) }
        let key = (folder as NSString).lastPathComponent
        LRUFolder.touch(folder)
        if let c = cached {
            guard c.etag != nil || c.lastModified != nil else {
                return DownloadResult(path: finalPath, fromCache: true, note: nil)
            }
            if let e = c.etag { headers.append("If-None-Match: \(e)") }
            if let m = c.lastModified { headers.append("If-Modified-Since: \(m)") }
        } else if let part = DownloadEntry.read(partInfoPath), part.url == url, let validator = part.etag ?? part.lastModified,
                  let size = RegularFile.bytes(partPath).map(Int64.init), size > 0 {
            existing = size
            headers += ["Range: bytes=\(size)-", "If-Range: \(validator)"]
        } else {
            try? fm.removeItem(atPath: partPath)
            try? fm.removeItem(atPath: partInfoPath)
        }
        if !fm.fileExists(atPath: partPath) { _ = fm.createFile(atPath: partPath, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: partPath) else {
            throw DownloadError.failed(url: url, reason: "cannot write \(partPath)")
        }
        _ = try? handle.seekToEnd()
        let transfer = HTTPTransfer(url: url, options: options, file: handle, existingBytes: existing, progress: progress, cancelled: cancelled)
        transfer.headers = headers
        if let cache { transfer.willReceive = { bytes in cache.evict(toFit: bytes, keeping: [key]) } }
        let (code, detail) = transfer.perform()
        try? handle.close()

        if cached != nil, code == CURLE_OK, transfer.status == 304 {
            try? fm.removeItem(atPath: partPath)
            return DownloadResult(path: finalPath, fromCache: true, note: nil)
        }
        if code != CURLE_OK || !(transfer.status == 200 || transfer.status == 206) {
            let failure = describe(code, detail: detail, url: url, transfer: transfer, options: options)
            // Keep what arrived for a resume only when the server named the version it sent.
            let validators = DownloadEntry(url: url, name: name, size: 0, etag: transfer.responseHeaders["etag"],
                                           lastModified: transfer.responseHeaders["last-modified"])
            if cached == nil, (transfer.status == 200 || transfer.status == 206), transfer.received > 0,
               validators.etag != nil || validators.lastModified != nil, transfer.stop == nil || transfer.stop == .cancelled {
                try? validators.write(partInfoPath)
            } else {
                try? fm.removeItem(atPath: partPath)
                try? fm.removeItem(atPath: partInfoPath)
            }
            if let c = cached, isUnreachable(code) {
                return DownloadResult(path: finalPath, fromCache: true,
                                      note: "could not ask the server whether \(url) changed (\(failure.reason)); using the copy downloaded \(c.downloaded)")
            }
            throw failure
        }
        let size = Int64(RegularFile.bytes(partPath) ?? 0)
        if let declared = transfer.contentLength, size != (transfer.appended ? existing : 0) + declared {
            try? fm.removeItem(atPath: partPath)
            throw DownloadError.failed(url: url, reason: "received \(size) bytes where the server announced \(declared)")
        }
        try? fm.removeItem(atPath: finalPath)
        do { try fm.moveItem(atPath: partPath, toPath: finalPath) } catch {
            throw DownloadError.failed(url: url, reason: "cannot keep the download: \(error.localizedDescription)")
        }
        try? fm.removeItem(atPath: partInfoPath)
        var entry = DownloadEntry(url: url, name: name, size: size, etag: transfer.responseHeaders["etag"],
                                  lastModified: transfer.responseHeaders["last-modified"])
        entry.downloaded = ISO8601DateFormatter().string(from: Date())
        try? entry.write(entryPath)
        return DownloadResult(path: finalPath, fromCache: false, note: cache.flatMap { bound($0, keeping: key, url: url) })
    }

    /// Holds `cache` to its bound after a download into entry `keeping`: least recently used
    /// entries not in use go; a note when the new one alone is over the bound (it stays, the
    /// first to go after its use).
    static func bound(_ cache: DownloadCache, keeping: String, url: String) -> String? {
        cache.evict(toFit: 0, keeping: [keeping])
        let bytes = RegularFile.bytes(inFolder: cache.folder + "/" + keeping)
        guard Int64(bytes) > cache.limitBytes else { return nil }
        return "\(url) (\(DownloadError.size(Int64(bytes)))) is larger than the download cache's bound (\(DownloadError.size(cache.limitBytes))): kept for now, the first to go"
    }

    /// Failures where a cached copy is still the best answer (no answer from the server at all).
    static func isUnreachable(_ code: CURLcode) -> Bool {
        [CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_COULDNT_RESOLVE_PROXY].contains(code)
    }

    /// The error of a failed transfer.
    static func describe(_ code: CURLcode, detail: String, url: String, transfer: HTTPTransfer,
                         options: DownloadOptions) -> DownloadError {
        switch transfer.stop {
        case .cancelled?: return .cancelled(url: url)
        case let .tooLarge(bytes)?: return .tooLarge(url: url, bytes: bytes, limit: options.maxBytes)
        case let .writeFailed(reason)?: return .failed(url: url, reason: "cannot write the download: \(reason)")
        case nil: break
        }
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if code == CURLE_UNSUPPORTED_PROTOCOL && !options.allowHTTP { return .insecureRedirect(url: url, detail: text) }
        if code == CURLE_FILESIZE_EXCEEDED { return .tooLarge(url: url, bytes: transfer.announcedSize, limit: options.maxBytes) }
        return .failed(url: url, reason: reason(code, text: text, transfer: transfer, options: options))
    }

    /// One line for a failed transfer that is none of `DownloadError`'s named cases.
    static func reason(_ code: CURLcode, text: String, transfer: HTTPTransfer, options: DownloadOptions) -> String {
        switch code {
        case CURLE_OK: return "the server answered \(transfer.status), not the file"
        case CURLE_HTTP_RETURNED_ERROR:
            return "the server answered \(transfer.status)\(HTTPStatus.phrase(transfer.status).map { " \($0)" } ?? "")"
        case CURLE_TOO_MANY_REDIRECTS: return "more than \(options.maxRedirects) redirects"
        case CURLE_UNSUPPORTED_PROTOCOL: return "unsupported protocol (\(text))"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM:
            return "the server's TLS certificate is not trusted (\(text))"
        case CURLE_OPERATION_TIMEDOUT:
            return text.lowercased().contains("connect") || transfer.status == 0 && transfer.received == 0 && text.contains("Connection")
                ? "no connection within \(Int(options.connectTimeout)) s (\(text))"
                : "timed out: less than 100 bytes/s for \(Int(options.stallTimeout)) s, or over \(Int(options.totalTimeout)) s in all (\(text))"
        case CURLE_PARTIAL_FILE:
            return "the connection closed early (\(text)); run again to resume"
        default: return text
        }
    }
}

/// Reason phrases for the statuses people meet.
enum HTTPStatus {
    static func phrase(_ code: Int) -> String? {
        [400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone", 416: "Range Not Satisfiable",
         429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"][code]
    }
}
