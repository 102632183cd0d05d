// LibraryFeed — scenes listed online: a JSON feed of {name, url, thumbnail?} read into library
// entries (Splat Frame's feed without scraping a website).
import Downloads
import Foundation
import JSONInput

/// A feed: `[{"name": "Garden", "url": "https://…/garden.spz", "thumbnail": "https://…/garden.jpg"}, …]`
/// (or the same list under `"scenes"`). URLs may be relative to the feed's; only http(s) is taken.
public enum LibraryFeed {
    /// Most entries read from one feed.
    public static let maxEntries = 10_000

    /// Downloads the feed at `url` (through `options`' cache, revalidated) and reads its entries.
    public static func entries(url: String, options: DownloadOptions) throws -> [LibraryEntry] {
        var o = options
        o.maxBytes = min(o.maxBytes, 16 << 20)   // a feed is a list, not a capture
        let result = try Downloader.fetch(url, options: o)
        defer { if let t = result.temporaryFolder { try? FileManager.default.removeItem(atPath: t) } }
        guard let data = FileManager.default.contents(atPath: result.path) else {
            throw DownloadError.failed(url: url, reason: "cannot read the downloaded feed")
        }
        return try parse(data, feedURL: url)
    }

    /// Reads a feed's bytes; relative URLs are resolved against `feedURL`.
    public static func parse(_ data: Data, feedURL: String) throws -> [LibraryEntry] {
        do {
            let root = try JSONNode.parse(data)
            let list = try ((try? root.array()) != nil ? root : root.required("scenes", "a list of scenes"))
                .array(count: 0...maxEntries, "a list of scenes (at most \(maxEntries))")
            return try list.map { node in
                let name = try node.required("name", "a name").string("a name")
                let urlNode = try node.required("url", "the scene's http(s) URL")
                let url = try absolute(try urlNode.string("the scene's http(s) URL"), feedURL, urlNode)
                let thumbnail = try node.optional("thumbnail").map { try absolute(try $0.string("a picture's http(s) URL"), feedURL, $0) }
                return LibraryEntry(url: url, name: name, thumbnail: thumbnail)
            }
        } catch let e as JSONPathError {
            throw DownloadError.failed(url: feedURL, reason: "not a scene feed: \(e)")
        }
    }

    static func absolute(_ text: String, _ base: String, _ node: JSONNode) throws -> String {
        guard let resolved = URL(string: text, relativeTo: URL(string: base))?.absoluteString, Downloader.isURL(resolved) else {
            throw node.fail("an http(s) URL (or one relative to the feed)")
        }
        return resolved
    }
}
