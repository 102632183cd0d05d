// Downloads — HTTPTransfer: one GET through libcurl into a file, with the response's status and
// validators, a size limit checked before and during the body, progress and cancellation.
import CCurl
import Foundation

/// One request (after redirects) and what came back.
final class HTTPTransfer {
    /// Request headers to add (e.g. `Range: bytes=100-`, `If-None-Match: "x"`).
    var headers: [String] = []
    /// The final response's status code (0 before one arrives).
    private(set) var status = 0
    /// The final response's headers, lower-cased names.
    private(set) var responseHeaders: [String: String] = [:]
    /// Body bytes written.
    private(set) var received: Int64 = 0
    /// Why our own check stopped the transfer, if it did.
    private(set) var stop: Stop?
    /// Told the whole file's size, bytes, before its first body byte is written, when the
    /// response announced it (the download cache makes room).
    var willReceive: ((Int64) -> Void)?

    /// What stopped a transfer from inside (libcurl then reports a write or callback error).
    enum Stop: Equatable {
        /// The caller's `cancelled` said so.
        case cancelled
        /// Over `DownloadOptions.maxBytes`; `bytes` is the announced size when there was one.
        case tooLarge(bytes: Int64?)
        /// The body could not be written to the file.
        case writeFailed(String)
    }

    private let url: String
    private let options: DownloadOptions
    /// Where the body goes; `append` decides at the first byte (206 appends, anything else starts over).
    private let file: FileHandle
    private let offset: Int64
    private var decided = false
    private var appending = false
    private let progress: ((Int64, Int64?) -> Void)?
    private let cancelled: (() -> Bool)?

    init(url: String, options: DownloadOptions, file: FileHandle, existingBytes: Int64,
         progress: ((Int64, Int64?) -> Void)?, cancelled: (() -> Bool)?) {
        self.url = url; self.options = options; self.file = file; offset = existingBytes
        self.progress = progress; self.cancelled = cancelled
    }

    /// Whether the body was appended to the existing bytes (a 206 answer to a range request).
    var appended: Bool { appending }
    /// The body's declared length, if any.
    var contentLength: Int64? { responseHeaders["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } }
    /// The whole file's size as the response announced it: its length, after the bytes already
    /// here when it continues them (a 206 answer), else nil.
    var announcedSize: Int64? { contentLength.map { (status == 206 ? offset : 0) + $0 } }

    /// Runs the transfer; returns libcurl's result and its error text.
    func perform() -> (CURLcode, String) {
        _ = ccurl_global_init()
        guard let curl = curl_easy_init() else { return (CURLE_FAILED_INIT, "libcurl could not start") }
        defer { curl_easy_cleanup(curl) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var list: UnsafeMutablePointer<curl_slist>?
        for h in headers { list = curl_slist_append(list, h) }
        defer { curl_slist_free_all(list) }
        let protocols = options.allowHTTP ? "http,https" : "https"
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_set_string(curl, CURLOPT_URL, url)
        _ = ccurl_set_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_set_string(curl, CURLOPT_PROTOCOLS_STR, protocols)
        _ = ccurl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, protocols)
        _ = ccurl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        _ = ccurl_set_long(curl, CURLOPT_MAXREDIRS, options.maxRedirects)
        _ = ccurl_set_long(curl, CURLOPT_FAILONERROR, 1)
        _ = ccurl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
        _ = ccurl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
        if let ca = options.caFile { _ = ccurl_set_string(curl, CURLOPT_CAINFO, ca) }
        _ = ccurl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
        _ = ccurl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(options.totalTimeout * 1000))
        _ = ccurl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 100)
        _ = ccurl_set_long(curl, CURLOPT_LOW_SPEED_TIME, max(1, Int(options.stallTimeout.rounded(.up))))
        _ = ccurl_set_off(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(0, options.maxBytes - offset)))
        _ = ccurl_set_string(curl, CURLOPT_USERAGENT, "SplatFrame (libcurl)")
        _ = ccurl_set_pointer(curl, CURLOPT_HTTPHEADER, list)
        _ = ccurl_set_write(curl, { data, size, count, user in
            let t = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
            return t.body(data!, size * count)
        }, me)
        _ = ccurl_set_header(curl, { data, size, count, user in
            let t = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
            t.header(String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
            return size * count
        }, me)
        _ = ccurl_set_progress(curl, { user, total, now, _, _ in
            let t = Unmanaged<HTTPTransfer>.fromOpaque(user!).takeUnretainedValue()
            if t.cancelled?() == true { t.stop = .cancelled; return 1 }
            t.progress?(t.offsetIfAppending + Int64(now), total > 0 ? t.offsetIfAppending + Int64(total) : nil)
            return 0
        }, me)
        let code = curl_easy_perform(curl)
        status = ccurl_response_code(curl)
        return (code, String(cString: errorBuffer))
    }

    private var offsetIfAppending: Int64 { appending ? offset : 0 }

    private func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new response (after a redirect or a 100 Continue): its headers replace the last one's.
            responseHeaders = [:]
            status = Int(trimmed.split(separator: " ").dropFirst().first ?? "") ?? 0
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = trimmed[..<colon].lowercased()
        responseHeaders[name] = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    }

    private func body(_ data: UnsafeMutablePointer<CChar>, _ n: Int) -> Int {
        if !decided {
            decided = true
            appending = status == 206
            if !appending {
                do { try file.truncate(atOffset: 0) } catch { stop = .writeFailed(error.localizedDescription); return 0 }
            }
            if let length = contentLength, (appending ? offset : 0) + length > options.maxBytes {
                stop = .tooLarge(bytes: (appending ? offset : 0) + length)
                return 0
            }
            if let length = contentLength { willReceive?((appending ? offset : 0) + length) }
        }
        let total = (appending ? offset : 0) + received + Int64(n)
        guard total <= options.maxBytes else {
            stop = .tooLarge(bytes: nil)
            return 0
        }
        do { try file.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(data), count: n, deallocator: .none)) } catch {
            stop = .writeFailed(error.localizedDescription)
            return 0
        }
        received += Int64(n)
        return n
    }
}
