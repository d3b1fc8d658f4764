/// Runs an application's shared sessions (`register(…, shared: true)`) when
/// several processes serve it (a cluster): one process owns each and runs its
/// ViewModel, every process answers from a replica that follows the owner's
/// events, and inputs go to the owner (`Application.hostSharedSessions`).
package protocol SharedSessionHost: AnyObject, Sendable {
    /// This process's replica of shared `viewModel`'s session, made if needed
    /// (`Application.addReplica`), once it has the owner's state.
    func replica(of viewModel: String, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void)
}
