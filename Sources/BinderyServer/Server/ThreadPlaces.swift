import Bindery

/// The places the server's threading rules name (`ThreadPlace`: marked and checked in debug builds).
extension ThreadPlace {
    /// Inside a callback of libmicrohttpd's: on a daemon's thread, or on the thread
    /// stopping the daemon as it closes connections. A connection's request, its
    /// unlocked request target and a stream's reads are only touched from here.
    static let libmicrohttpd = ThreadPlace("in a libmicrohttpd callback")
    /// Holding a connection's lock: no routing, no file read, nothing that may wait, runs here.
    static let connectionLock = ThreadPlace("holding a connection's lock")
    /// Holding an event stream's lock, which comes after its connection's: a connection's
    /// lock is never taken here.
    static let streamLock = ThreadPlace("holding an event stream's lock")
}
