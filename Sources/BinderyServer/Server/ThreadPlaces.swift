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

// The server's uses go through these, so that a release build keeps nothing of them: not a
// call, not the places' lazy globals (on the paths of every request and every event).

/// `body`, with the thread marked as in `place` (debug builds).
@inline(__always)
func marking<Result: ~Copyable>(_ place: @autoclosure () -> ThreadPlace, _ body: () throws -> Result) rethrows -> Result {
    #if DEBUG
        return try place().within(body)
    #else
        return try body()
    #endif
}

/// Stops a debug build unless this thread is in `place`.
@inline(__always)
func assertIn(_ place: @autoclosure () -> ThreadPlace, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
        place().assertInside(what(), file: file, line: line)
    #endif
}

/// Stops a debug build if this thread is in `place`.
@inline(__always)
func assertNotIn(_ place: @autoclosure () -> ThreadPlace, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
        place().assertOutside(what(), file: file, line: line)
    #endif
}
