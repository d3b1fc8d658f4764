import Bindery
import Foundation
import Logging
import Synchronization

/// A node's replica of each shared ViewModel: made from the committed changes, answering
/// its clients, and the inputs it sends to the owner through the change log.
extension PostgresSharedSessions {
    package func replica(of viewModel: String, completion: @escaping @Sendable (Result<String, BinderyError>) -> Void) {
        queue.async { [self] in
            let shared = self.viewModel(viewModel)
            if let replica = shared.replica, shared.isReady, application?.serves(replica) == true {
                return completion(.success(replica.id))
            }
            shared.isReady = false
            shared.waiting.append(completion)
            queue.asyncAfter(deadline: .now() + Self.dispatch(answerTimeout)) {
                guard !shared.waiting.isEmpty, !shared.isReady else { return }
                let waiting = shared.waiting
                shared.waiting = []
                waiting.forEach { $0(.failure(BinderyError(.storeUnavailable, "the shared session \(viewModel) has no owner now; try again"))) }
            }
            if !shared.isLoading { load(shared) }
            if shared.owner == nil { renewOrAcquire(shared) }
        }
    }

    /// Reads the committed state (whole) and follows the changes after it.
    func load(_ shared: SharedViewModel) {
        assertOnQueue()
        shared.isLoading = true
        let name = shared.name
        database.async { [self] connection in
            let read = Result { () throws -> (session: String, epoch: Int64, lastEventID: UInt64, values: [(name: String, json: Data)], offset: Int64)? in
                let db = try connection.get()
                try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
                defer { _ = try? db.execute("COMMIT") }
                let offset = try ChangeLog.lastOffset(of: Self.outputs(name), in: db)
                guard let row = try db.execute("SELECT session_id, epoch, last_event_id FROM bindery_shared WHERE view_model = $1", [.text(name)]).first
                else { return nil }
                let values = try db.execute("SELECT name, json FROM bindery_shared_value WHERE view_model = $1 ORDER BY name", [.text(name)]).map {
                    (name: $0[0].text ?? "", json: $0[1].bytes ?? Data())
                }
                return (row[0].text ?? "", row[1].int ?? 0, UInt64(bitPattern: row[2].int ?? 0), values, offset)
            }
            queue.async { [self] in
                shared.isLoading = false
                switch read {
                case .failure(let error):
                    logger.warning("shared session not read", metadata: ["view_model": "\(name)", "error": "\(error)"])
                case .success(nil):
                    // Never run yet: its first owner's first change seeds the replica.
                    follow(shared, after: 0)
                case .success(let state?):
                    seedReplica(shared, session: state.session, epoch: state.epoch, values: state.values, lastEventID: state.lastEventID)
                    follow(shared, after: state.offset)
                }
            }
        }
    }

    func follow(_ shared: SharedViewModel, after offset: Int64) {
        assertOnQueue()
        changes.follow(
            Self.outputs(shared.name), after: offset,
            deliver: { [weak self] _, payload in
                guard let self else { return }
                queue.async { self.apply(payload, to: shared) }
            },
            behind: { [weak self] in
                guard let self else { return }
                queue.async { self.load(shared) }
            })
    }

    /// The replica made again (or for the first time) from whole values.
    func seedReplica(_ shared: SharedViewModel, session id: String, epoch: Int64, values: [(name: String, json: Data)], lastEventID: UInt64) {
        assertOnQueue()
        guard let application else { return }
        let replica: any ReplicaSession
        if let current = shared.replica, current.id == id, application.serves(current) {
            replica = current
        } else {
            do {
                replica = try application.addReplica(shared.name, id: id) { [weak self] input, payload, completion in
                    self?.send(input, payload, to: shared, completion: completion)
                }
            } catch {
                let waiting = shared.waiting
                shared.waiting = []
                waiting.forEach { $0(.failure(error as? BinderyError ?? BinderyError(.limitReached, "\(error)"))) }
                return
            }
        }
        shared.replica = replica
        shared.replicaEpoch = epoch
        replica.reseed(values, through: lastEventID) { [weak self] in
            guard let self else { return }
            queue.async {
                shared.isReady = true
                let waiting = shared.waiting
                shared.waiting = []
                waiting.forEach { $0(.success(replica.id)) }
                let deferred = shared.deferredAnswers
                shared.deferredAnswers = []
                self.answer(deferred, from: shared)
            }
        }
    }

    /// A committed change of the owner: applied to the replica, then the answers to this node's inputs.
    func apply(_ payload: Data, to shared: SharedViewModel) {
        assertOnQueue()
        guard let batch = try? JSONDecoder().decode(Batch.self, from: payload) else { return }
        if let seed = batch.seed {
            seedReplica(
                shared, session: batch.session, epoch: batch.epoch, values: seed.map { ($0.name, Data($0.json.utf8)) }, lastEventID: batch.seedLastEventID)
        } else if shared.replica?.id != batch.session || shared.replicaEpoch != batch.epoch {
            // A change of an owner whose first change this replica has not seen: read it whole, then answer.
            shared.deferredAnswers += batch.answers
            return load(shared)
        }
        if let replica = shared.replica, !batch.events.isEmpty {
            let events = batch.events.map {
                ReplicatedEvent(id: $0.id, name: $0.name, kind: $0.signal ? .signal : .driver, json: Data($0.json.utf8), whole: $0.whole.map { Data($0.utf8) })
            }
            replica.replicate(events) { [weak self] followed in
                // Ids that do not follow: this replica missed something; read it whole again.
                guard !followed, let self else { return }
                queue.async { self.load(shared) }
            }
        }
        answer(batch.answers, from: shared)
    }

    /// Gives this node's inputs their answers, each in a turn of the replica after what it has applied.
    func answer(_ answers: [Batch.Answer], from shared: SharedViewModel) {
        assertOnQueue()
        guard let replica = shared.replica else { return }
        for answer in answers {
            guard let request = answer.request, let completion = shared.inputs.removeValue(forKey: request) else { continue }
            if let code = answer.code {
                completion(.failure(BinderyError(BinderyError.Code(rawValue: code), answer.message ?? "")))
            } else {
                // In the replica's turn after the events above: what the input did is in its answer.
                replica.inputAnswer(completion)
            }
        }
    }

    /// An input to the shared session, from this node: appended for the owner, answered once the owner's answer is committed.
    func send(_ input: String, _ payload: Data, to shared: SharedViewModel, completion: @escaping @Sendable (Result<Snapshot, BinderyError>) -> Void) {
        let topic = Self.inputs(shared.name)
        let request = UUID().uuidString
        let body: Data
        do {
            body = try JSONEncoder().encode(["input": input, "payload": payload.base64EncodedString(), "request": request])
        } catch {
            return completion(.failure(BinderyError(.invalidPayload, "\(error)")))
        }
        // The waiter first: the owner's answer may come back before the append's own thread goes on.
        queue.async { [self] in
            shared.inputs[request] = completion
            queue.asyncAfter(deadline: .now() + Self.dispatch(answerTimeout)) {
                shared.inputs.removeValue(forKey: request)?(
                    .failure(BinderyError(.storeUnavailable, "the shared session's owner did not answer in time; the input may still apply")))
            }
            database.async { [self] connection in
                let appended = Result { () throws -> Int64 in
                    let db = try connection.get()
                    return try db.transaction { db in
                        let offset = try ChangeLog.lock(topic, in: db)
                        try changes.append(body, to: topic, at: offset, in: db)
                        return offset
                    }
                }
                switch appended {
                case .failure(let error):
                    logger.warning("input to a shared session not sent", metadata: ["view_model": "\(shared.name)", "error": "\(error)"])
                    queue.async {
                        shared.inputs.removeValue(forKey: request)?(
                            .failure(BinderyError(.storeUnavailable, "the shared session cannot be reached now; try again")))
                    }
                case .success(let offset):
                    changes.committed(body, to: topic, at: offset)
                }
            }
        }
    }

}
