// TestSupport — LoopbackListener: a listening TCP socket on 127.0.0.1, for the tests' servers
// (`LoopbackHTTPServer`, the webcam tests' MJPEG server).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum LoopbackListener {
    /// Binds and listens on 127.0.0.1:`port` (0: an ephemeral port); returns the socket and the port bound.
    public static func listen(port: UInt16 = 0, backlog: Int32 = 16) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0, Glibc.listen(fd, backlog) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, UInt16(bigEndian: bound.sin_port))
    }
}
