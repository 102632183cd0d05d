// Downloads — DownloadError: why a download failed, as values (the URL, the scheme refused, the
// size and the limit). Its `description` is one line naming the URL and no command-line flag:
// the program that chose the `DownloadOptions` words the remedy (splatframe names its flags).
import Foundation

/// Why a download failed. Every case names the URL it was asked for.
public enum DownloadError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Not an `http://` or `https://` URL with a host.
    case notAURL(url: String)
    /// A URL whose `scheme` (lower-cased, `"http"`) is refused: `DownloadOptions.allowHTTP` is false.
    case insecureScheme(url: String, scheme: String)
    /// A redirect led away from HTTPS while `DownloadOptions.allowHTTP` is false; `detail` is libcurl's text.
    case insecureRedirect(url: String, detail: String)
    /// The file is over `limit` bytes (`DownloadOptions.maxBytes`); `bytes` is its size when the
    /// server announced it (nil: the body ran past the limit, or libcurl refused it unread).
    case tooLarge(url: String, bytes: Int64?, limit: Int64)
    /// The transfer was stopped by the caller's `cancelled`.
    case cancelled(url: String)
    /// Any other failure (a status, a time-out, a certificate, a file that cannot be written), in one line.
    case failed(url: String, reason: String)

    /// The URL asked for.
    public var url: String {
        switch self {
        case let .notAURL(url), let .insecureScheme(url, _), let .insecureRedirect(url, _), let .tooLarge(url, _, _),
             let .cancelled(url), let .failed(url, _):
            return url
        }
    }

    /// What went wrong, without the URL.
    public var reason: String {
        switch self {
        case .notAURL: return "not an http(s) URL with a host"
        case let .insecureScheme(_, scheme): return "plain \(scheme) is refused: only https is allowed"
        case let .insecureRedirect(_, detail): return "redirected away from https (\(detail))"
        case let .tooLarge(_, bytes, limit):
            return "the file\(bytes.map { " (\($0) bytes)" } ?? "") is over the \(Self.size(limit)) limit"
        case .cancelled: return "stopped"
        case let .failed(_, reason): return reason
        }
    }

    public var description: String { "\(url): \(reason)" }

    /// `bytes` as whole MB (2^20 bytes) when it is a whole number of them, else as bytes.
    public static func size(_ bytes: Int64) -> String {
        bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
    }
}
