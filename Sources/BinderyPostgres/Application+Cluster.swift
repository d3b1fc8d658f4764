import Bindery
import Foundation
import Logging
import Synchronization

extension Application {
    /// Makes this process a node of a cluster on the PostgreSQL database at
    /// `url`: its sessions kept there (`keepSessions(inPostgres:)`, unless
    /// `keepingSessions` is false), its browsers' sign-ins and scripts' tokens
    /// kept there (`PostgresSignInStore`: a browser signed in through one node
    /// is signed in on all, and signed out on all at once), its shared ViewModels
    /// run once for the cluster, and a change log the app's own stores share
    /// values through (the todo list's store takes it). Listens from now on.
    /// Call before serving.
    public func joinCluster(postgres url: String, keepingSessions: Bool = true, logger: Logger) throws -> ChangeLog {
        let node = UUID().uuidString
        let changes = try ChangeLog(url: url, logger: logger)
        if keepingSessions { try keepSessions(inPostgres: url, node: node, listeningWith: changes) }
        keepSignIns(in: try PostgresSignInStore(url: url, node: node, listeningWith: changes))
        let shared = try PostgresSharedSessions(
            url: url, node: node, changes: changes, application: self, logger: logger, leaseTime: configuration.sharedSessionLease,
            answerTimeout: configuration.sharedSessionAnswerTimeout)
        readiness.add { changes.isConnected ? nil : "this node cannot reach its shared database; it serves what it has" }
        changes.start()
        shared.start()
        return changes
    }
}
