import Foundation

/// A session as its store keeps it: enough to make it again, here or in
/// another process, as if it had never gone.
package struct StoredSession: Sendable, Equatable {
    /// The session id.
    package var id: String
    /// The registered name of its ViewModel.
    package var viewModel: String
    /// Whether it is its ViewModel's one shared session.
    package var isShared: Bool
    /// The creation parameters, as sent.
    package var parameters: Data
    /// The client it was made for (counted against its share), if any.
    package var client: String?
    /// Whom it answers besides its id.
    package var owner: SessionOwner?
    /// Who asked for it, for its factory.
    package var identity: Identity?
    /// When it was first made.
    package var createdAt: Date
    /// When it was last asked for or streamed from.
    package var lastSeen: Date
    /// Its declared state (`SessionState`), nil if its ViewModel declares none.
    package var state: Data?
    /// The id of the last event it published, or, if `stoppedCleanly` is
    /// false, an id no event of its published before is above.
    package var lastEventID: UInt64
    /// Whether it was saved as it stopped (an idle session let go, a server
    /// stopping), so that `lastEventID` is exactly the last: its streams
    /// resume where they were. Otherwise the process may have published
    /// more before it died, and resuming streams start over (`bindery.reset`).
    package var stoppedCleanly: Bool
    /// Its recent inputs sent with a client's key, with their answers
    /// (`InputKeys`), captured with `state`; nil if none.
    package var inputKeys: Data?

    package init(
        id: String, viewModel: String, isShared: Bool = false, parameters: Data = Data(), client: String? = nil,
        owner: SessionOwner? = nil, identity: Identity? = nil, createdAt: Date = Date(), lastSeen: Date = Date(),
        state: Data? = nil, lastEventID: UInt64 = 0, stoppedCleanly: Bool = false, inputKeys: Data? = nil
    ) {
        self.id = id
        self.viewModel = viewModel
        self.isShared = isShared
        self.parameters = parameters
        self.client = client
        self.owner = owner
        self.identity = identity
        self.createdAt = createdAt
        self.lastSeen = lastSeen
        self.state = state
        self.lastEventID = lastEventID
        self.stoppedCleanly = stoppedCleanly
        self.inputKeys = inputKeys
    }
}
