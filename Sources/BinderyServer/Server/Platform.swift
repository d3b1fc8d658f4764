import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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

    /// `write(2)`, named by its system's module: where a method of the same name is in scope.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }

    /// `close(2)`, as `write`.
    @discardableResult
    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    /// `shutdown(2)` of both directions, as `write`.
    @discardableResult
    static func shutDown(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #else
            Darwin.shutdown(descriptor, SHUT_RDWR)
        #endif
    }

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
