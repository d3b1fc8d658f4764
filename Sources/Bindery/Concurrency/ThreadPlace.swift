import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A place a thread can be in (inside a libmicrohttpd callback, holding a
/// stream's lock), named so that a rule about it is checked rather than only
/// written down, as SwiftNIO checks that code runs on its event loop:
/// the code that puts a thread there marks it (`within`), and code that may
/// run only there, or never there, asserts so (`assertInside`, `assertOutside`).
///
/// The marks and the checks are made in debug builds (the tests, under the
/// sanitizers too) and compiled out of release builds, which pay nothing.
///
/// Thread safety: every method may be called from any thread; each thread
/// sees only its own marks.
package final class ThreadPlace: Sendable {
    /// What the place is, for the message of a broken rule.
    package let name: String
    /// This thread's depth in the place (how many `within`s it is in), as a pointer's bits.
    private let depth: pthread_key_t

    package init(_ name: String) {
        self.name = name
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        depth = key
    }

    /// Runs `body` with this thread marked as in the place (debug builds).
    @inline(__always)
    package func within<Result: ~Copyable>(_ body: () throws -> Result) rethrows -> Result {
        #if DEBUG
            let outer = Int(bitPattern: pthread_getspecific(depth))
            pthread_setspecific(depth, UnsafeRawPointer(bitPattern: outer + 1))
            defer { pthread_setspecific(depth, UnsafeRawPointer(bitPattern: outer)) }
        #endif
        return try body()
    }

    /// Whether this thread is in the place (always false in release builds, where nothing marks it).
    package var isCurrent: Bool { pthread_getspecific(depth) != nil }

    /// Stops a debug build if this thread is not in the place.
    @inline(__always)
    package func assertInside(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            if !isCurrent { preconditionFailure("\(what()) runs only \(name)", file: file, line: line) }
        #endif
    }

    /// Stops a debug build if this thread is in the place.
    @inline(__always)
    package func assertOutside(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            if isCurrent { preconditionFailure("\(what()) never runs \(name)", file: file, line: line) }
        #endif
    }
}
