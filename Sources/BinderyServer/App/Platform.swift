import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The few system constants Glibc and Darwin spell differently, in one place,
/// so that an app builds on macOS as on Linux.
enum Platform {
    #if os(Linux)
        /// `SOCK_STREAM`, for `socket`.
        static let streamSocket = Int32(SOCK_STREAM.rawValue)
        /// `RLIMIT_NOFILE`, for `getrlimit` and `setrlimit`.
        static let openFilesLimit = Int32(RLIMIT_NOFILE.rawValue)
        /// The flags of a `send` that must not raise SIGPIPE.
        static let sendWithoutSignal = Int32(MSG_NOSIGNAL)
    #else
        static let streamSocket = SOCK_STREAM
        static let openFilesLimit = RLIMIT_NOFILE
        /// Darwin has no `MSG_NOSIGNAL`: the socket is made with `SO_NOSIGPIPE` instead (`quietSocket`).
        static let sendWithoutSignal: Int32 = 0
    #endif

    /// A TCP socket whose writes to a closed peer fail rather than raise SIGPIPE (-1 if none could be made).
    static func quietSocket() -> Int32 {
        let fd = socket(AF_INET, streamSocket, 0)
        #if !os(Linux)
            var on: Int32 = 1
            if fd >= 0 { setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) }
        #endif
        return fd
    }
}
