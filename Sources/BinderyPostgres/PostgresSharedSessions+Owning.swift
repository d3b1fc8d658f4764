import Bindery
import Foundation
import Logging
import Synchronization

/// The owner of a shared ViewModel: its lease taken and renewed, the inputs applied in
/// order, its turns committed (fenced by the lease) before anyone sees them.
extension PostgresSharedSessions {
    /// Every second: renew what this node owns, take over what nobody renewed.
    func tick() {
        assertOnQueue()
        for shared in viewModels.values { renewOrAcquire(shared) }
    }

    func renewOrAcquire(_ shared: SharedViewModel) {
        assertOnQueue()
        let name = shared.name
        let seconds = Int64(leaseTime.components.seconds)
        if let owner = shared.owner {
            let epoch = owner.epoch
            database.async { [self] connection in
                let renewed =
                    (try? connection.get().execute(
                        "UPDATE bindery_lease SET expires_at = now() + make_interval(secs => $4) WHERE view_model = $1 AND node = $2 AND epoch = $3 RETURNING epoch",
                        [.text(name), .text(node), .int(epoch), .int(seconds)]
                    ).isEmpty == false) ?? false
                if !renewed { queue.async { [self] in stopOwning(shared, epoch: epoch, why: "its lease was not renewed") } }
            }
            return
        }
        guard !shared.isAcquiring else { return }
        shared.isAcquiring = true
        database.async { [self] connection in
            let taken = Result { () throws -> (epoch: Int64, session: String?, lastEventID: UInt64, inputsThrough: Int64, state: Data?)? in
                let db = try connection.get()
                return try db.transaction { db in
                    guard
                        let epoch = try db.execute(
                            """
                            INSERT INTO bindery_lease (view_model, node, epoch, expires_at) VALUES ($1, $2, 1, now() + make_interval(secs => $3))
                            ON CONFLICT (view_model) DO UPDATE SET node = EXCLUDED.node, epoch = bindery_lease.epoch + 1, expires_at = EXCLUDED.expires_at
                            WHERE bindery_lease.expires_at < now()
                            RETURNING epoch
                            """, [.text(name), .text(node), .int(seconds)]
                        ).first?[0].int
                    else { return nil }
                    let row = try db.execute(
                        "SELECT session_id, last_event_id, inputs_through, state FROM bindery_shared WHERE view_model = $1", [.text(name)]
                    ).first
                    return (epoch, row?[0].text, UInt64(bitPattern: row?[1].int ?? 0), row?[2].int ?? 0, row?[3].bytes)
                }
            }
            queue.async { [self] in
                shared.isAcquiring = false
                switch taken {
                case .failure(let error): logger.warning("shared session's lease not read", metadata: ["view_model": "\(name)", "error": "\(error)"])
                case .success(nil): break
                case .success(let lease?): becomeOwner(shared, lease)
                }
            }
        }
    }

    func becomeOwner(_ shared: SharedViewModel, _ lease: (epoch: Int64, session: String?, lastEventID: UInt64, inputsThrough: Int64, state: Data?)) {
        assertOnQueue()
        guard let application else { return }
        let name = shared.name
        let id = lease.session ?? SessionID.make()
        // Its ids jump past any its predecessor may have used; its first change is its whole state.
        let resuming = lease.session.map { _ in
            StoredSession(id: id, viewModel: name, isShared: true, state: lease.state, lastEventID: lease.lastEventID, stoppedCleanly: false)
        }
        logger.info("shared session owned here", metadata: ["view_model": "\(name)", "session": "\(id)", "epoch": "\(lease.epoch)"])
        let pending = Mutex<[ReplicatedEvent]>([])
        let owning = Mutex<Owner?>(nil)
        application.makeOwner(
            name, id: id, resuming: resuming,
            tap: { [weak self] event in
                // Events of its first turns (before `owner` is set) wait in `pending`.
                if owning.withLock({ $0 == nil }) {
                    pending.withLock { $0.append(event) }
                } else {
                    guard let self else { return }
                    queue.async { self.published(event, by: shared) }
                }
            },
            completion: { [self] made in
                queue.async { [self] in
                    switch made {
                    case .failure(let error):
                        logger.error("shared session could not be made", metadata: ["view_model": "\(name)", "error": "\(error)"])
                    case .success(let session):
                        let owner = Owner(session: session, epoch: lease.epoch, inputsThrough: lease.inputsThrough)
                        shared.owner = owner
                        owning.withLock { $0 = owner }
                        owner.events = pending.withLock { $0 }
                        // Its whole state first (in a turn before any input), then the inputs not yet applied.
                        session.snapshot { [self] snapshot in
                            queue.async { [self] in
                                guard shared.owner === owner, case .success(let snapshot) = snapshot else { return }
                                owner.seed = snapshot
                                owner.events.removeAll { $0.id <= snapshot.lastEventID }
                                flush(shared)
                            }
                        }
                        changes.follow(
                            Self.inputs(name), after: lease.inputsThrough,
                            deliver: { [weak self] offset, payload in
                                guard let self else { return }
                                queue.async { self.applyInput(offset, payload, to: shared, owner: owner) }
                            },
                            behind: { [weak self] in
                                self?.logger.error("inputs to a shared session are no longer kept: some were not applied", metadata: ["view_model": "\(name)"])
                            })
                    }
                }
            })
    }

    func published(_ event: ReplicatedEvent, by shared: SharedViewModel) {
        assertOnQueue()
        guard let owner = shared.owner else { return }
        owner.events.append(event)
        flush(shared)
    }

    func applyInput(_ offset: Int64, _ payload: Data, to shared: SharedViewModel, owner: Owner) {
        assertOnQueue()
        guard shared.owner === owner, offset > owner.inputsApplied else { return }
        owner.inputsApplied = offset
        let body = try? JSONDecoder().decode([String: String].self, from: payload)
        guard let body, let input = body["input"], let data = body["payload"].flatMap({ Data(base64Encoded: $0) }) else {
            owner.answers.append((offset, body?["request"], .failure(BinderyError(.invalidPayload, "the input could not be read"))))
            return flush(shared)
        }
        let request = body["request"]
        owner.session.send(input: input, payload: data, key: nil, countsAsUse: true) { [self] result in
            queue.async { [self] in
                guard shared.owner === owner else { return }
                owner.answers.append((offset, request, result.map(\.lastEventID)))
                flush(shared)
            }
        }
    }

    /// Commits what the owner did since its last commit, in one fenced
    /// transaction; then the next, if more came meanwhile. The state written is
    /// captured in a turn after every event and input answer it includes, and
    /// before any it does not: a next owner that starts from it applies
    /// exactly the inputs after `inputs_through` again.
    func flush(_ shared: SharedViewModel) {
        assertOnQueue()
        guard let owner = shared.owner, !owner.isFlushing, owner.seed != nil || !owner.events.isEmpty || !owner.answers.isEmpty else { return }
        owner.isFlushing = true
        owner.session.capture { [self] record in
            queue.async { [self] in
                guard shared.owner === owner else { return }
                let lastEventID = record?.lastEventID ?? owner.seed?.lastEventID ?? 0
                let seed = owner.seed
                owner.seed = nil
                let events = owner.events.filter { $0.id <= lastEventID }
                owner.events.removeAll { $0.id <= lastEventID }
                let answers = owner.answers
                owner.answers = []
                let batch = Batch(
                    session: owner.session.id, epoch: owner.epoch,
                    seed: seed.map { snapshot in
                        snapshot.outputs.map {
                            Batch.Event(id: snapshot.lastEventID, name: $0.name, signal: false, json: String(decoding: $0.json, as: UTF8.self), whole: nil)
                        }
                    },
                    seedLastEventID: seed?.lastEventID ?? 0,
                    events: events.map {
                        Batch.Event(
                            id: $0.id, name: $0.name, signal: $0.kind == .signal, json: String(decoding: $0.json, as: UTF8.self),
                            whole: $0.whole.map { String(decoding: $0, as: UTF8.self) })
                    },
                    lastEventID: lastEventID,
                    answers: answers.map { answer in
                        switch answer.result {
                        case .success(let event): Batch.Answer(input: answer.input, request: answer.request, event: event, code: nil, message: nil)
                        case .failure(let error):
                            Batch.Answer(input: answer.input, request: answer.request, event: nil, code: error.code.rawValue, message: error.message)
                        }
                    })
                // Inputs are applied in order, each answered: those answered here are all up to the last of them.
                let inputsThrough = max(owner.inputsCommitted, answers.map(\.input).max() ?? 0)
                commit(batch, inputsThrough, state: record?.state, for: shared, owner: owner)
            }
        }
    }

    func commit(_ batch: Batch, _ inputsThrough: Int64, state: Data?, for shared: SharedViewModel, owner: Owner) {
        assertOnQueue()
        let name = shared.name
        let topic = Self.outputs(name)
        let payload: Data
        do {
            payload = try JSONEncoder().encode(batch)
        } catch {
            return stopOwning(shared, epoch: owner.epoch, why: "its change could not be encoded: \(error)")
        }
        database.async { [self] connection in
            let committed = Result { () throws -> Int64 in
                let db = try connection.get()
                return try db.transaction { db in
                    // The fence: this node, this epoch, not expired; held until the commit, so no one takes it over meanwhile.
                    guard
                        !(try db.execute(
                            "SELECT 1 FROM bindery_lease WHERE view_model = $1 AND node = $2 AND epoch = $3 AND expires_at > now() FOR UPDATE",
                            [.text(name), .text(node), .int(owner.epoch)]
                        ).isEmpty)
                    else { throw Fenced() }
                    let offset = try ChangeLog.lock(topic, in: db)
                    try changes.append(payload, to: topic, at: offset, in: db)
                    try db.execute(
                        """
                        INSERT INTO bindery_shared (view_model, session_id, epoch, last_event_id, inputs_through, state) VALUES ($1, $2, $3, $4, $5, $6)
                        ON CONFLICT (view_model) DO UPDATE SET session_id = EXCLUDED.session_id, epoch = EXCLUDED.epoch,
                            last_event_id = EXCLUDED.last_event_id, inputs_through = EXCLUDED.inputs_through, state = EXCLUDED.state
                        """,
                        [
                            .text(name), .text(batch.session), .int(owner.epoch), .int(Int64(bitPattern: batch.lastEventID)), .int(inputsThrough),
                            state.map(PostgresValue.bytes) ?? .null,
                        ])
                    if batch.seed != nil { try db.execute("DELETE FROM bindery_shared_value WHERE view_model = $1", [.text(name)]) }
                    for event in (batch.seed ?? []) + batch.events where !event.signal {
                        try db.execute(
                            "INSERT INTO bindery_shared_value (view_model, name, json) VALUES ($1, $2, $3) ON CONFLICT (view_model, name) DO UPDATE SET json = EXCLUDED.json",
                            [.text(name), .text(event.name), .bytes(Data((event.whole ?? event.json).utf8))])
                    }
                    return offset
                }
            }
            queue.async { [self] in
                switch committed {
                case .success(let offset):
                    owner.inputsCommitted = inputsThrough
                    changes.committed(payload, to: topic, at: offset)
                    owner.isFlushing = false
                    flush(shared)
                case .failure(let error):
                    stopOwning(shared, epoch: owner.epoch, why: error is Fenced ? "another node holds its lease" : "its change was not committed: \(error)")
                }
            }
        }
    }

    /// Lets go of the instance this node ran: what it had not committed is
    /// undone (its inputs are applied again by the next owner, from the committed state).
    func stopOwning(_ shared: SharedViewModel, epoch: Int64, why: String) {
        assertOnQueue()
        guard let owner = shared.owner, owner.epoch == epoch else { return }
        logger.warning("shared session no longer owned here", metadata: ["view_model": "\(shared.name)", "epoch": "\(epoch)", "why": "\(why)"])
        shared.owner = nil
        changes.unfollow(Self.inputs(shared.name))
        owner.session.dispose(completion: nil)
    }
}
