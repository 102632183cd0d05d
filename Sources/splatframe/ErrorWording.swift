// ErrorWording — library errors worded with this program's flags. The libraries report values
// (a URL's scheme, a size and its limit, a head source); where the remedy is one of our options,
// the executable says so here, for the one-line error (SplatFrameCommand+Main) and the window's
// messages alike.
import Downloads
import HeadTracking

enum ErrorWording {
    /// The one line for `error`: flag-aware for the library errors whose remedy is an option,
    /// else the error's own description.
    static func line(_ error: any Error) -> String { flagged(error) ?? "\(error)" }

    /// The flag-aware wording of `error`, or nil when it names no option of ours.
    static func flagged(_ error: any Error) -> String? {
        switch error {
        case let e as DownloadError: return download(e)
        case let e as HeadTrackingError: return headTracking(e)
        default: return nil
        }
    }

    static func download(_ e: DownloadError) -> String? {
        switch e {
        case let .insecureScheme(url, scheme):
            return "\(url): plain \(scheme) is refused (add --allow-http to allow it)"
        case let .insecureRedirect(url, detail):
            return "\(url): redirected away from https (\(detail)); add --allow-http to allow plain http"
        case .tooLarge:
            return "\(e.description) (--max-download-mb)"
        default: return nil
        }
    }

    static func headTracking(_ e: HeadTrackingError) -> String? {
        switch e {
        case let .cameraSourceUnavailable(source):
            return "\(source) head tracking is not available in this command; use --head mouse, udp or replay:LOG"
        case let .poseTargetLoopsBack(target, source):
            return "invalid --send-pose '\(target)': expected a port other than the one --head \(source) listens on (it would hear itself)"
        default: return nil
        }
    }
}
