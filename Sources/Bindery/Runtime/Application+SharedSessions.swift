import Foundation

/// A cluster's shared sessions, as their host (`SharedSessionHost`) reaches
/// the application: through `SharedSessionRuntime`, and nothing else.
extension Application: SharedSessionRuntime {
    package func hostSharedSessions(_ host: SharedSessionHost) {
        sharedHost.withLock { $0 = host }
    }

    package func isShared(_ viewModel: String) -> Bool {
        definitions[viewModel]?.isShared ?? false
    }

    package func addReplica(
        _ viewModel: String, id: String,
        forward: @escaping @Sendable (_ input: String, _ payload: Data, _ completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) -> Void
    ) throws -> any ReplicaSession {
        let made = try live.add(at: .replacing(id), client: nil) { id in
            newSession(viewModel, id: id, client: nil, owner: nil, origin: nil, role: .replica(forward: forward), archive: nil)
        }
        made.replaced?.dispose()
        return made.session
    }

    package func serves(_ replica: any ReplicaSession) -> Bool {
        live[replica.id] === replica
    }

    package func makeOwner(
        _ viewModel: String, id: String, resuming: StoredSession?, tap: @escaping @Sendable (ReplicatedEvent) -> Void,
        completion: @escaping @Sendable (Result<any OwnedSession, BinderyError>) -> Void
    ) {
        let definition: ViewModelDefinition
        do {
            definition = try definitions.definition(viewModel)
        } catch {
            return completion(.failure(error))
        }
        let parameters = resuming?.parameters ?? Data()
        let origin = SessionOrigin(isShared: true, parameters: parameters, identity: nil, createdAt: resuming?.createdAt ?? Date())
        let session = Session(
            id: id, viewModelName: viewModel, client: nil, owner: nil, origin: origin, role: .owner(tap: tap), limits: configuration,
            scheduler: SerialScheduler(label: "bindery.session.\(viewModel).owner", pool: configuration.executors), format: wireFormat)
        let context = ViewModelContext(sessionID: id, parameters: parameters, services: services, identity: nil)
        session.start(declaredOutputs: definition.declaredOutputs, resuming: resuming, { try definition.make(context) }) { result in
            if case .failure = result { session.dispose() }
            completion(result.map { session })
        }
    }

    /// This process's replica of `viewModel`'s shared session, from `host`:
    /// the session it serves under the id the host answers.
    func replica(of viewModel: String, from host: SharedSessionHost, completion: @escaping @Sendable (Result<Session, BinderyError>) -> Void) {
        host.replica(of: viewModel) { [live] result in
            completion(
                result.flatMap { id in
                    // Replaced since by a replica of a newer owner's session: the client asks again.
                    live[id].map { .success($0) } ?? .failure(BinderyError(.storeUnavailable, "the shared session \(viewModel) moved; try again"))
                })
        }
    }
}
