import Bindery
import Dispatch
import Foundation

/// What a development server tells its pages about the app itself
/// (`--development` only), as `bindery.dev` events on every stream
/// (`DevNotice`): what the dev loop (`my-app dev`) says of its builds, its
/// crashes and the assets that changed, and the ViewModels that fail as they
/// run, each with the file and line of its failing output's declaration.
///
/// Every stream starts with the state that stands (`preamble`): `ok`, or the
/// last `building`, `failed`, `crashed` or `threw`. A page that reconnects to
/// the process the loop started next finds the crash the last one ended
/// with, or that the problem it showed is gone.
final class DevelopmentNotices: Sendable {
    private let sources: SourceLocator
    /// The standing state's event, which every new stream starts with.
    private let current = Locked<[UInt8]>(ServerSentEvents.development(DevNotice(state: "ok").line))
    /// Every open stream is told each notice: the daemon's `tell`, once it is made.
    private let tell = Locked<(@Sendable ([UInt8]) -> Void)?>(nil)
    /// The dev loop's notices, being read (from `listen(to:)` to `stop()`).
    private let reading = Locked<DispatchSourceRead?>(nil)

    /// Notices about the app in `root` (the folder of its `Package.swift`: the
    /// working directory of a development server).
    init(root: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        sources = SourceLocator(root: root)
    }

    /// What every stream starts with: the state that stands.
    var preamble: [UInt8] { current.withLock { $0 } }

    /// From now on, each notice goes to every open stream through `tell`.
    func startTelling(_ tell: @escaping @Sendable ([UInt8]) -> Void) {
        self.tell.withLock { $0 = tell }
    }

    /// Tells every stream `notice`; one with a state stands until the next.
    func post(_ notice: DevNotice) {
        let event = ServerSentEvents.development(notice.line)
        if notice.state != nil { current.withLock { $0 = event } }
        tell.withLock { $0 }?(event)
    }

    /// A ViewModel failed as it ran (`RuntimeConfiguration.reportsProblems`).
    func report(_ problem: ViewModelProblem) {
        var place = problem.type.flatMap { sources.declaration(ofType: $0, member: problem.output) } ?? DevNotice.Problem(message: "")
        place.message = "\(problem.message): \(problem.cause)"
        post(DevNotice(state: "threw", problems: [place]))
    }

    /// Reads the dev loop's notices from `descriptor`, a line of JSON each,
    /// until it closes (the loop ended) or `stop`. A line that is not a notice is skipped.
    func listen(to descriptor: Int32) {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "bindery.dev-loop"))
        // Only this source's handler, on its serial queue, touches the bytes of a line not yet complete.
        nonisolated(unsafe) var pending: [UInt8] = []
        source.setEventHandler { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                // The loop has gone (or the descriptor failed): nothing more will come.
                if count == 0 || (errno != EAGAIN && errno != EINTR) { self?.stop() }
                return
            }
            pending += chunk[..<count]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<end])
                pending.removeSubrange(...end)
                if let notice = try? JSONDecoder().decode(DevNotice.self, from: line) { self?.post(notice) }
            }
        }
        source.resume()
        reading.withLock { $0 = source }
    }

    /// Stops reading the dev loop's notices.
    func stop() {
        reading.withLock { source in
            source?.cancel()
            source = nil
        }
    }
}
