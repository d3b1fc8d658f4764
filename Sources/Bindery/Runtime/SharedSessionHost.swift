import Foundation

/// Runs an application's shared sessions (`register(…, shared: true)`) when
/// several processes serve it (a cluster): one process owns each and runs its
/// ViewModel, every process answers from a replica that follows the owner's
/// events, and inputs go to the owner (`Application.hostSharedSessions`).
package protocol SharedSessionHost: AnyObject, Sendable {
    /// The id of this process's replica of shared `viewModel`'s session, made
    /// if needed (`SharedSessionRuntime.addReplica`), once it has the owner's state.
    func replica(of viewModel: String, completion: @escaping @Sendable (Result<String, BinderyError>) -> Void)
}

/// What a host of shared sessions may ask of the application it runs them
/// for, and all it may: make a replica or an owner, and ask whether a replica
/// still serves. `Application` is one.
package protocol SharedSessionRuntime: AnyObject, Sendable {
    /// Runs the app's shared sessions through `host`. Call before serving.
    func hostSharedSessions(_ host: SharedSessionHost)

    /// Whether `viewModel` is registered as shared.
    func isShared(_ viewModel: String) -> Bool

    /// A replica of shared session `id` of `viewModel`, serving this process's
    /// requests under `id` (in place of one there), counted for nobody and
    /// answering anyone; its inputs go to `forward`. Its log is empty until seeded.
    func addReplica(
        _ viewModel: String, id: String,
        forward: @escaping @Sendable (_ input: String, _ payload: Data, _ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) -> Void
    ) throws -> any ReplicaSession

    /// Whether `replica` is the session this process serves under its id.
    func serves(_ replica: any ReplicaSession) -> Bool

    /// The owning instance of shared session `id` of `viewModel`: made by its
    /// factory (with `resuming`'s declared state), its events numbered after
    /// `resuming`'s last id and handed to `tap`. It serves no request: only
    /// its host sends it inputs, and only its host saves it.
    func makeOwner(
        _ viewModel: String, id: String, resuming: StoredSession?, tap: @escaping @Sendable (ReplicatedEvent) -> Void,
        completion: @escaping @Sendable (Result<any OwnedSession, BinderyError>) -> Void)
}

/// A replica of a shared session, as its host drives it: it follows the
/// owner's events; every input it is sent goes to `forward` (`addReplica`).
package protocol ReplicaSession: AnyObject, Sendable {
    var id: String { get }
    /// Appends `events` (the owner's, in order) in a turn; `completion(false)`
    /// if they do not follow the replica's last one (it must be seeded again).
    func replicate(_ events: [ReplicatedEvent], completion: @escaping @Sendable (Bool) -> Void)
    /// Starts the replica again from `values` (every driver's latest, whole) as
    /// they stand at `lastID`: its readers of an earlier id get a reset and the snapshot.
    func reseed(_ values: [(name: String, json: Data)], through lastID: UInt64, completion: (@Sendable () -> Void)?)
    /// The answer to an input forwarded from here, in a turn after the events
    /// replicated before it.
    func inputAnswer(_ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void)
}

/// The owning instance of a shared session, as its host drives it: the host
/// sends it the cluster's inputs and commits what it publishes.
package protocol OwnedSession: AnyObject, Sendable {
    var id: String { get }
    /// Sends `payload` to input `name` in a turn (`Session.send`).
    func send(
        input name: String, payload: Data, key: String?, countsAsUse: Bool,
        completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void)
    /// Every output's value, whole, read in a turn (its first change commits it).
    func snapshot(_ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void)
    /// The session as a store keeps it, captured in a turn.
    func capture(_ completion: @escaping @Sendable (StoredSession?) -> Void)
    /// Disposes it in a turn (its lease is lost).
    func dispose(completion: (@Sendable () -> Void)?)
}

extension Session: ReplicaSession, OwnedSession {}
