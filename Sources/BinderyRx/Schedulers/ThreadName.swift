import Foundation

/// Names the calling thread for `top -H`, `/proc/<pid>/task/*/comm`, perf and
/// debuggers. Linux keeps 15 bytes of a thread's name and refuses a longer one
/// outright (which `Thread.name` passes on, so the thread kept its creator's
/// name): the name is cut to fit, at a character boundary.
package func nameCurrentThread(_ name: String) {
    #if os(Linux)
    var bytes = 0
    let fitting = name.prefix { character in
        bytes += character.utf8.count
        return bytes <= 15
    }
    // What pthread_setname_np does on Linux, which Swift's Glibc module does not export.
    let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    _ = String(fitting).withCString { write(file, $0, strlen($0)) }
    close(file)
    #else
    Thread.current.name = name
    #endif
}
