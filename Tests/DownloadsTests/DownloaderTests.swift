// DownloadsTests — the downloader against servers on the loopback started here: a file, its
// revalidation (304), a resume after a cut, 404, a redirect loop, a slow server, a body over
// the limit, a lying Content-Length, plain http refused, and an HTTPS server whose self-signed
// certificate must be refused. Each failure is one line; no failure leaves a cache entry.
import Foundation
import Testing
@testable import Downloads
import TestSupport

@Suite struct DownloaderTests {
    static let payload: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }

    func options(_ cache: String) -> DownloadOptions {
        var o = DownloadOptions(cacheFolder: cache)
        o.allowHTTP = true   // the loopback servers speak plain http; the https case is below
        o.stallTimeout = 2
        o.connectTimeout = 5
        return o
    }

    /// The cache's entries (folders with an entry.json).
    func entries(_ cache: String) -> [String] {
        let fm = FileManager.default
        return ((try? fm.contentsOfDirectory(atPath: cache)) ?? []).filter {
            fm.fileExists(atPath: "\(cache)/\($0)/entry.json")
        }
    }

    func expectOneLine(_ error: any Error, _ url: String, mentions: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = "\(error)"
        #expect(text.hasPrefix(url + ": ") && !text.contains("\n") && text.contains(mentions), "\(text)", sourceLocation: sourceLocation)
    }

    @Test func aFileIsCachedAndRevalidated() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/scene.spz", .file(Self.payload, etag: "\"v1\"", lastModified: "Wed, 25 Nov 2026 10:00:00 GMT"))
        let cache = TestData.temporaryDirectory("downloads").path
        let url = server.url("/scene.spz")
        var seen: Int64 = 0
        let first = try Downloader.fetch(url, options: options(cache), progress: { done, _ in seen = max(seen, done) })
        #expect(!first.fromCache && (first.path as NSString).lastPathComponent == "scene.spz")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: first.path))) == Self.payload)
        #expect(seen == Int64(Self.payload.count))
        #expect(entries(cache).count == 1)
        // Again: asked with the validators, answered 304, served from the cache.
        let second = try Downloader.fetch(url, options: options(cache))
        #expect(second.fromCache && second.path == first.path)
        #expect(server.requests("/scene.spz").last?.headers["if-none-match"] == "\"v1\"")
        // Changed on the server: downloaded anew.
        server.route("/scene.spz", .file(Array(Self.payload.reversed()), etag: "\"v2\"", lastModified: nil))
        let third = try Downloader.fetch(url, options: options(cache))
        let thirdBytes = Array(try Data(contentsOf: URL(fileURLWithPath: third.path)))
        #expect(!third.fromCache && thirdBytes == Array(Self.payload.reversed()))
        // Gone offline: the cached copy, with a note.
        server.stop()
        let offline = try Downloader.fetch(url, options: options(cache))
        #expect(offline.fromCache && offline.note?.contains("could not ask") == true, "\(String(describing: offline.note))")
    }

    @Test func aCutDownloadResumesWhereItStopped() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let url = server.url("/big.ply")
        server.route("/big.ply", .cut(Array(Self.payload.prefix(100_000)), claimed: Self.payload.count, etag: "\"r1\""))
        let cache = TestData.temporaryDirectory("downloads").path
        #expect { try Downloader.fetch(url, options: options(cache)) } throws: { e in
            expectOneLine(e, url, mentions: "closed early"); return true
        }
        #expect(entries(cache).isEmpty)
        server.route("/big.ply", .file(Self.payload, etag: "\"r1\"", lastModified: nil))
        let done = try Downloader.fetch(url, options: options(cache))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: done.path))) == Self.payload)
        #expect(server.requests("/big.ply").last?.headers["range"] == "bytes=100000-")
        #expect(entries(cache).count == 1)
    }

    @Test func failuresAreOneLineAndLeaveNoEntry() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let cache = TestData.temporaryDirectory("downloads").path
        server.route("/loop", .redirect("/loop"))
        server.route("/slow", .slow(Self.payload, chunk: 10, pause: 1))
        server.route("/big", .file(Self.payload, etag: nil, lastModified: nil))
        server.route("/liar", .cut(Array(Self.payload.prefix(1000)), claimed: 5000, etag: nil))
        server.route("/http-redirect", .redirect(server.url("/big")))
        var small = options(cache)
        small.maxBytes = 100_000
        var httpsOnly = options(cache)
        httpsOnly.allowHTTP = false
        let cases: [(String, DownloadOptions, String)] = [
            ("/missing.spz", options(cache), "404 Not Found"),
            ("/loop", options(cache), "more than 5 redirects"),
            ("/slow", options(cache), "timed out"),
            ("/big", small, "is over the 100000 bytes limit"),
            ("/liar", options(cache), "closed early"),
            ("/big", httpsOnly, "plain http is refused"),
        ]
        for (path, o, mentions) in cases {
            let url = server.url(path)
            #expect { try Downloader.fetch(url, options: o) } throws: { e in
                expectOneLine(e, url, mentions: mentions); return true
            }
        }
        // The refusals carry their values (the caller words the remedy) and name no flag.
        let big = server.url("/big")
        #expect(throws: DownloadError.tooLarge(url: big, bytes: Int64(Self.payload.count), limit: 100_000)) {
            try Downloader.fetch(big, options: small)
        }
        #expect(throws: DownloadError.insecureScheme(url: big, scheme: "http")) { try Downloader.fetch(big, options: httpsOnly) }
        for e in [DownloadError.tooLarge(url: big, bytes: nil, limit: 2 << 20), .insecureScheme(url: big, scheme: "http"),
                  .insecureRedirect(url: big, detail: "Protocol \"http\" disabled")] {
            #expect(!e.description.contains("--") && e.description.hasPrefix(big + ": "), "\(e)")
        }
        #expect(DownloadError.tooLarge(url: big, bytes: nil, limit: 2 << 20).reason == "the file is over the 2 MB limit")
        #expect(entries(cache).isEmpty, "\(entries(cache))")
        // Without a cache: a private folder, given back to remove.
        let temp = try Downloader.fetch(server.url("/big"), options: { var o = options(cache); o.cacheFolder = nil; return o }())
        #expect(temp.temporaryFolder != nil && temp.path.hasPrefix(temp.temporaryFolder!))
        try FileManager.default.removeItem(atPath: temp.temporaryFolder!)
    }

    /// `openssl s_server` with a certificate made here: refused as untrusted, and accepted when
    /// that certificate is named as the authority (so the refusal is about trust alone).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "skipped: openssl is not installed"))
    func aSelfSignedCertificateIsRefused() throws {
        let dir = TestData.temporaryDirectory("tls").path
        let key = dir + "/key.pem", cert = dir + "/cert.pem"
        let made = try BinaryLocator.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                                                               "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1", "-keyout", key, "-out", cert])
        try #require(made.status == 0, "\(made.stderr)")
        // A free port: bind, read it, let go (s_server takes it a moment later).
        let probe = try LoopbackHTTPServer()
        let port = probe.port
        probe.stop()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-www", "-quiet"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }   // test runners block SIGTERM in children
        try #require(Wait.until(timeout: 60) { Self.canConnect(port) }, "openssl s_server did not listen on \(port)")
        let url = "https://127.0.0.1:\(port)/scene.spz"
        let cache = TestData.temporaryDirectory("downloads").path
        var o = DownloadOptions(cacheFolder: cache)
        o.connectTimeout = 10
        #expect { try Downloader.fetch(url, options: o) } throws: { e in
            expectOneLine(e, url, mentions: "not trusted"); return true
        }
        #expect(entries(cache).isEmpty)
        o.caFile = cert
        let trusted = try Downloader.fetch(url, options: o)
        #expect(FileManager.default.fileExists(atPath: trusted.path))
    }

    static func canConnect(_ port: Int) -> Bool {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(s) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    @Test func fileNamesComeFromTheURLPath() {
        #expect(Downloader.fileName(for: "https://x.org/a/b/My%20Scene.spz?token=1") == "My_Scene.spz")
        #expect(Downloader.fileName(for: "https://x.org/") == "download")
        #expect(Downloader.fileName(for: "https://x.org/../..") == "download")
        #expect(Downloader.isURL("HTTPS://x.org/a.ply") && !Downloader.isURL("/tmp/a.ply"))
    }
}
