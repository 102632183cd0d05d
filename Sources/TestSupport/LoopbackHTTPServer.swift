// TestSupport — LoopbackHTTPServer: a small HTTP/1.1 server on 127.0.0.1 for download tests,
// each path behaving one way: a file (with validators, ranges and 304s), a status, a slow
// trickle, a body cut short, a redirect. One connection at a time, `Connection: close`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public final class LoopbackHTTPServer: @unchecked Sendable {
    /// How a path answers.
    public enum Behaviour: Sendable {
        /// The bytes, with an `ETag` and `Last-Modified` when given; honours `Range: bytes=N-`
        /// (with `If-Range`), `If-None-Match` and `If-Modified-Since`.
        case file([UInt8], etag: String?, lastModified: String?)
        /// A status with a short text body.
        case status(Int)
        /// The bytes `chunk` at a time with `pause` seconds between chunks.
        case slow([UInt8], chunk: Int, pause: Double)
        /// Announces `claimed` bytes (and an ETag), sends `bytes`, closes.
        case cut([UInt8], claimed: Int, etag: String?)
        /// 302 to `location`.
        case redirect(String)
    }

    /// A request as received.
    public struct Request: Sendable {
        public var path: String
        /// Lower-cased header names.
        public var headers: [String: String]
    }

    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var routes: [String: Behaviour] = [:]
    private var log: [Request] = []
    private var thread: Thread?
    private var stopping = false

    /// Starts listening on an ephemeral loopback port.
    public init() throws {
        let (fd, bound) = try LoopbackListener.listen()
        listener = fd
        port = Int(bound)
        let t = Thread { [unowned self] in self.serve() }
        thread = t
        t.start()
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Sets how `path` answers.
    public func route(_ path: String, _ behaviour: Behaviour) {
        lock.lock(); routes[path] = behaviour; lock.unlock()
    }

    /// Requests received so far for `path`.
    public func requests(_ path: String) -> [Request] {
        lock.lock(); defer { lock.unlock() }
        return log.filter { $0.path == path }
    }

    /// Stops listening (in-flight answers finish).
    public func stop() {
        lock.lock()
        let already = stopping
        stopping = true
        lock.unlock()
        guard !already else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func serve() {
        while true {
            let c = accept(listener, nil, nil)
            if c < 0 {
                lock.lock(); let done = stopping; lock.unlock()
                if done { return }
                continue
            }
            Thread.detachNewThread { [self] in
                handle(c)
                close(c)
            }
        }
    }

    private func handle(_ c: Int32) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.containsHeaderEnd {
            let n = recv(c, &buffer, buffer.count, 0)
            if n <= 0 { return }
            data += buffer[0..<n]
            if data.count > 65536 { return }
        }
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return }
        let path = String(parts[1])
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        lock.lock()
        log.append(Request(path: path, headers: headers))
        let behaviour = routes[path] ?? .status(404)
        lock.unlock()
        switch behaviour {
        case let .status(code):
            respond(c, code, ["Content-Length": "9"], Array("no file.\n".utf8))
        case let .redirect(location):
            respond(c, 302, ["Location": location, "Content-Length": "0"], [])
        case let .cut(bytes, claimed, etag):
            var h = ["Content-Length": "\(claimed)"]
            if let etag { h["ETag"] = etag }
            respond(c, 200, h, bytes)
        case let .slow(bytes, chunk, pause):
            respond(c, 200, ["Content-Length": "\(bytes.count)"], [])
            var i = 0
            while i < bytes.count {
                let end = min(bytes.count, i + chunk)
                if !send(c, Array(bytes[i..<end])) { return }
                i = end
                Thread.sleep(forTimeInterval: pause)
            }
        case let .file(bytes, etag, lastModified):
            var h: [String: String] = [:]
            if let etag { h["ETag"] = etag }
            if let lastModified { h["Last-Modified"] = lastModified }
            if let inm = headers["if-none-match"], etag != nil, inm == etag {
                respond(c, 304, h, [])
                return
            }
            if let ims = headers["if-modified-since"], headers["if-none-match"] == nil, ims == lastModified {
                respond(c, 304, h, [])
                return
            }
            if let range = headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
               let start = Int(range.dropFirst(6).dropLast()), start < bytes.count,
               headers["if-range"] == nil || headers["if-range"] == etag || headers["if-range"] == lastModified {
                h["Content-Range"] = "bytes \(start)-\(bytes.count - 1)/\(bytes.count)"
                h["Content-Length"] = "\(bytes.count - start)"
                respond(c, 206, h, Array(bytes[start...]))
                return
            }
            h["Content-Length"] = "\(bytes.count)"
            respond(c, 200, h, bytes)
        }
    }

    private func respond(_ c: Int32, _ code: Int, _ headers: [String: String], _ body: [UInt8]) {
        var head = "HTTP/1.1 \(code) \(code == 200 ? "OK" : code == 206 ? "Partial Content" : code == 304 ? "Not Modified" : code == 302 ? "Found" : "Error")\r\n"
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { head += "\(k): \(v)\r\n" }
        head += "Connection: close\r\n\r\n"
        _ = send(c, Array(head.utf8) + body)
    }

    private func send(_ c: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}

private extension Array where Element == UInt8 {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 { return true }
        return false
    }
}
