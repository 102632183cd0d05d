// MJPEGServer — an MJPEG-over-HTTP camera on the loopback, as IP-camera apps serve them, for
// the network-camera tests: it can go away mid-stream and come back on the same port.
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class MJPEGServer: @unchecked Sendable {
    let frames: [Data]
    let fps: Double
    private(set) var port: UInt16 = 0
    private let lock = NSLock()
    private var listenFD: Int32 = -1
    private var clientFD: Int32 = -1
    private var up = false
    private var servedCount = 0
    private var generation = 0

    /// Serves `frames` (JPEG files' bytes) in a loop at `fps`.
    init(frames: [Data], fps: Double) { self.frames = frames; self.fps = fps }

    /// Frames written to clients so far.
    var served: Int { lock.lock(); defer { lock.unlock() }; return servedCount }
    var url: String { "http://127.0.0.1:\(port)/video.mjpg" }

    /// Listens (on an ephemeral port the first time, the same port after `goAway`).
    func start() throws {
        let (fd, boundPort) = try LoopbackListener.listen(port: port, backlog: 4)
        lock.lock()
        port = boundPort
        listenFD = fd; up = true; generation += 1
        let gen = generation
        lock.unlock()
        let thread = Thread { [self] in serve(listening: fd, generation: gen) }
        thread.name = "test.mjpeg-server"
        thread.start()
    }

    /// Closes the client connection and stops listening: the camera went away.
    func goAway() {
        lock.lock()
        up = false
        if clientFD >= 0 { shutdown(clientFD, Int32(SHUT_RDWR)) }
        if listenFD >= 0 { shutdown(listenFD, Int32(SHUT_RDWR)); close(listenFD); listenFD = -1 }
        lock.unlock()
    }

    private func isCurrent(_ gen: Int) -> Bool { lock.lock(); defer { lock.unlock() }; return up && generation == gen }

    private func serve(listening fd: Int32, generation gen: Int) {
        while isCurrent(gen) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            lock.lock(); clientFD = client; lock.unlock()
            stream(to: client, generation: gen)
            lock.lock(); clientFD = -1; lock.unlock()
            close(client)
        }
    }

    private func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                off += n
            }
            return true
        }
    }

    private func stream(to fd: Int32, generation gen: Int) {
        var request = [UInt8](repeating: 0, count: 2048)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, 2000) > 0 { _ = recv(fd, &request, request.count, 0) }
        let header = "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\nCache-Control: no-cache\r\n\r\n"
        guard send(fd, Data(header.utf8)) else { return }
        var i = 0
        let start = Date()
        while isCurrent(gen) {
            let jpeg = frames[i % frames.count]
            var part = Data("--frame\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n".utf8)
            part.append(jpeg)
            part.append(Data("\r\n".utf8))
            guard send(fd, part) else { return }
            lock.lock(); servedCount += 1; lock.unlock()
            i += 1
            // Pace to fps (the camera's clock, not a test timeout).
            let due = start.addingTimeInterval(Double(i) / fps)
            let wait = due.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
    }
}
