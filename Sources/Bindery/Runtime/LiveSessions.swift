import Foundation

/// The sessions this process holds (an `Application`'s live table): each by
/// id, the one session of each shared ViewModel, how many each client has
/// against its share, and the requests waiting for a session being made
/// again from the store or for a shared one being looked for there.
///
/// Thread safety: any thread; one lock of its own, held only to read or change
/// the table (and to make a `Session` object, which runs nothing), never while
/// a session runs or a completion is called.
final class LiveSessions: Sendable {
    typealias Completion = @Sendable (Result<Session, BinderyError>) -> Void

    private struct Table {
        var byID: [String: Session] = [:]
        var shared: [String: Session] = [:]
        var byClient: [String: Int] = [:]
        /// Requests for sessions being made, by what is being made.
        var waiting: [Making: [Completion]] = [:]
    }

    /// A session being made that requests wait for.
    enum Making: Hashable {
        /// Session `id`, made again from the store.
        case again(id: String)
        /// The shared session of `viewModel`, looked for in the store (or made).
        case shared(viewModel: String)
    }

    private let table = Locked(Table())
    private let maxSessions: Int
    private let maxSessionsPerClient: Int

    /// A table that holds at most `maxSessions`, `maxPerClient` for any one client.
    init(maxSessions: Int, maxPerClient: Int) {
        self.maxSessions = maxSessions
        maxSessionsPerClient = maxPerClient
    }

    /// Where a session goes in the table.
    enum Place {
        /// Under a new id, or `preferred` if no session is live or being made again under it.
        case new(preferred: String? = nil)
        /// Under its stored id; the live one is kept if it was made meanwhile.
        case rebuilt(String)
        /// Under `id`, in place of whatever is there (a cluster's replica).
        case replacing(String)
    }

    /// A session made by `make` with the id it is given, for `client` (counted
    /// against its share), placed at `place` and, if `sharedAs` names its
    /// ViewModel, as that ViewModel's shared session; `isNew` is false where
    /// the table kept a live one, and `replaced` is the one it took out.
    func add(
        at place: Place, client: String?, sharedAs viewModel: String? = nil, _ make: (_ id: String) -> Session
    ) throws(BinderyError) -> (session: Session, isNew: Bool, replaced: Session?) {
        try table.withLock { table -> Result<(session: Session, isNew: Bool, replaced: Session?), BinderyError> in
            var replaced: Session?
            let id: String
            switch place {
            case .new(let preferred):
                let free = preferred.map { table.byID[$0] == nil && table.waiting[.again(id: $0)] == nil } ?? false
                id = free ? preferred! : SessionID.make()
            case .rebuilt(let stored):
                if let live = table.byID[stored] { return .success((live, false, nil)) }
                id = stored
            case .replacing(let taken):
                replaced = table.byID[taken]
                id = taken
            }
            if let client, table.byClient[client, default: 0] >= maxSessionsPerClient {
                return .failure(BinderyError(.tooManySessions, "this client already has \(maxSessionsPerClient) sessions; delete one or let one idle out"))
            }
            guard table.byID.count - (replaced == nil ? 0 : 1) < maxSessions else {
                return .failure(BinderyError(.limitReached, "the server already runs \(maxSessions) sessions"))
            }
            if let replaced { Self.remove(replaced, from: &table) }
            let session = make(id)
            table.byID[id] = session
            if let client { table.byClient[client, default: 0] += 1 }
            if let viewModel { table.shared[viewModel] = session }
            return .success((session, true, replaced))
        }.get()
    }

    /// Takes `session` out of the table (it is found no more: in the store, or nowhere).
    func remove(_ session: Session) {
        table.withLock { Self.remove(session, from: &$0) }
    }

    private static func remove(_ session: Session, from table: inout Table) {
        if table.byID[session.id] === session {
            table.byID[session.id] = nil
            if let client = session.client {
                let left = table.byClient[client, default: 1] - 1
                table.byClient[client] = left > 0 ? left : nil
            }
        }
        if table.shared[session.viewModelName] === session { table.shared[session.viewModelName] = nil }
    }

    /// The live session `id`.
    subscript(id: String) -> Session? { table.withLock { $0.byID[id] } }

    /// Whether `id` is a live session's, or one's being made again.
    func isTaken(_ id: String) -> Bool { table.withLock { $0.byID[id] != nil || $0.waiting[.again(id: id)] != nil } }

    /// What a request for a session being made elsewhere does.
    enum Wait {
        /// It is live: no wait.
        case live(Session)
        /// The first to ask: it makes the session, and `finish…` answers everyone.
        case first
        /// Another request makes it; its completion answers this one too.
        case behind
    }

    /// What `making` makes, for `completion`: the live session, or a wait for its making.
    func await(_ making: Making, _ completion: @escaping Completion) -> Wait {
        table.withLock { table in
            let live: Session?
            switch making {
            case .again(let id): live = table.byID[id]
            case .shared(let viewModel): live = table.shared[viewModel]
            }
            if let live { return .live(live) }
            guard table.waiting[making] == nil else {
                table.waiting[making]!.append(completion)
                return .behind
            }
            table.waiting[making] = [completion]
            return .first
        }
    }

    /// Answers every request waiting for what `making` made with `result`.
    func finish(_ making: Making, _ result: Result<Session, BinderyError>) {
        table.withLock { $0.waiting.removeValue(forKey: making) ?? [] }.forEach { $0(result) }
    }

    /// Every live session.
    var all: [Session] { table.withLock { Array($0.byID.values) } }

    /// The live sessions `matching` picks.
    func filter(_ matching: (Session) -> Bool) -> [Session] { table.withLock { $0.byID.values.filter(matching) } }

    /// The number of live sessions.
    var count: Int { table.withLock { $0.byID.count } }

    /// The number of live sessions of each of `viewModels` (0 for one with none).
    func counts(of viewModels: [String]) -> [String: Int] {
        table.withLock { table in
            var counts = Dictionary(uniqueKeysWithValues: viewModels.map { ($0, 0) })
            for session in table.byID.values { counts[session.viewModelName, default: 0] += 1 }
            return counts
        }
    }
}
