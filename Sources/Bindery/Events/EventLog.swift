import Foundation

/// A session's numbered history of output values: every driver's latest value
/// (the snapshot) and a bounded window of recent events for `Last-Event-ID` resume.
///
/// Threading: a value type, guarded by its `Broadcast`'s lock and written in the session's turns.
struct EventLog {
    /// How events are encoded, once each, as they are appended.
    let format: EventWireFormat
    /// The id of the newest event, 0 before any.
    private(set) var lastID: UInt64 = 0
    /// The newest event: all a reader that keeps up has not read (always a
    /// signal or its driver's latest, so `Subscription.take` hands it out as is).
    private(set) var newest: OutputEvent?
    private var latest: [String: OutputEvent] = [:]
    private var recent: RingBuffer<OutputEvent>
    /// The id of the newest signal no longer retained (0 if none): a reader
    /// behind it has lost a signal, where a lost driver value is superseded.
    private var forgottenSignalID: UInt64 = 0

    /// A log keeping the last `retained` events for resume, encoding each in `format`.
    init(retained: Int, format: EventWireFormat) {
        self.format = format
        recent = RingBuffer(capacity: max(1, retained))
    }

    /// Numbers the events from `id + 1` on: a session rebuilt from its store
    /// goes on from its stored ids. Only before the first event.
    mutating func resume(after id: UInt64) {
        precondition(lastID == 0 && newest == nil, "a log resumes before its first event")
        lastID = id
    }

    /// Starts the log again from `values` (each driver's latest value, whole)
    /// as they stand at `lastID`: a replica of a session that another process
    /// runs, taking its state from there. A reader that has read an id before
    /// `lastID` cannot resume from it here: it gets a reset and the snapshot.
    mutating func seed(_ values: [(name: String, json: Data)], through lastID: UInt64) {
        latest = [:]
        newest = nil
        recent = RingBuffer(capacity: recent.capacity)
        self.lastID = lastID &- UInt64(values.count)
        for value in values { _ = append(name: value.name, kind: .driver, json: value.json) }
        recent = RingBuffer(capacity: recent.capacity)
        newest = nil
        forgottenSignalID = lastID
    }

    /// Numbers and records a new value of output `name`; with `whole`, `json`
    /// is the changes since the output's latest event, whose whole value `whole` makes.
    mutating func append(name: String, kind: OutputKind, json: Data, whole: (() throws -> Data)? = nil) -> OutputEvent {
        lastID += 1
        let event: OutputEvent
        if kind == .driver, let whole, let previous = latest[name] {
            // A change: made with the id of the event it changes.
            event = OutputEvent(id: lastID, name: name, changes: json, previousID: previous.id, whole: whole, format: format)
            latest[name] = event
            previous.forgetWhole()
        } else {
            event = OutputEvent(id: lastID, name: name, kind: kind, json: json, format: format)
            // One lookup, as before changes: the previous value goes, and lets its whole value go.
            if kind == .driver, let previous = latest.updateValue(event, forKey: name), previous.isChange { previous.forgetWhole() }
        }
        newest = event
        if let forgotten = recent.append(event), forgotten.kind == .signal { forgottenSignalID = forgotten.id }
        return event
    }

    /// Copies `prefix` and the newest event's bytes into `buffer` and returns
    /// how many, if there is one and they fit in the buffer (the event's alone
    /// in `limit`): without a reference to the event, so under the lock that
    /// keeps the log as it is.
    func copyNewest(prefix: [UInt8], into buffer: UnsafeMutableRawBufferPointer, limit: Int) -> Int? {
        guard let newest else { return nil }
        let count = newest.encoded.count
        guard count <= limit, prefix.count + count <= buffer.count else { return nil }
        prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        newest.encoded.withUnsafeBytes { buffer.baseAddress!.advanced(by: prefix.count).copyMemory(from: $0.baseAddress!, byteCount: count) }
        return prefix.count + count
    }

    /// `copyNewest(prefix:into:limit:)` without a prefix: a one-session stream's, every event.
    func copyNewest(into buffer: UnsafeMutableRawBufferPointer, limit: Int) -> Int? {
        guard let newest else { return nil }
        let count = newest.encoded.count
        guard count <= min(buffer.count, limit) else { return nil }
        newest.encoded.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
        return count
    }

    /// Every driver's current value, whole, oldest first.
    var snapshot: [OutputEvent] { latest.values.sorted { $0.id < $1.id }.map { $0.whole(format) } }

    /// `snapshot` without the outputs named in `excluded`'s keys.
    func snapshot<Value>(excluding excluded: [String: Value]) -> [OutputEvent] {
        guard !excluded.isEmpty else { return snapshot }
        return latest.values.filter { excluded[$0.name] == nil }.sorted { $0.id < $1.id }.map { $0.whole(format) }
    }

    /// The current value of driver `name`, whole.
    func latest(_ name: String) -> OutputEvent? { latest[name]?.whole(format) }

    /// Whether `event` is still its driver's latest value.
    func isLatest(_ event: OutputEvent) -> Bool { latest[event.name]?.id == event.id }

    /// What a client that has seen everything up to `id` needs.
    enum Replay: Equatable {
        /// Just these events: each driver's value if it changed, every signal, in order.
        case events([OutputEvent])
        /// The id is unknown or too old: start over from the snapshot.
        case reset([OutputEvent])
    }

    /// What a reader that has read up to `position` (an id of this log) has not:
    /// each driver's latest value if it changed, every signal, in order; nil
    /// if a signal it has not read is no longer retained.
    func unread(after position: UInt64) -> [OutputEvent]? {
        guard position < lastID else { return [] }
        if lastID - position <= UInt64(recent.count) { return retained(after: position) }
        guard position >= forgottenSignalID else { return nil }
        // Some of what it has not read is forgotten, but no signal: a driver
        // whose latest value is older than the window still has it.
        let oldestRetained = recent.first?.id ?? lastID + 1
        return latest.values.filter { $0.id > position && $0.id < oldestRetained }.sorted { $0.id < $1.id }.map { $0.asRead(after: position, format) }
            + retained(after: position)
    }

    /// What comes after `id`, or a reset if the log no longer holds it.
    func replay(after id: UInt64) -> Replay {
        guard id <= lastID, lastID - id <= UInt64(recent.count) else { return .reset(snapshot) }
        return .events(retained(after: id))
    }

    /// The retained events after `id` that are still news: every signal, and
    /// a driver's value if it is still its latest. Walks only those events: a
    /// reader that keeps up is one or two behind, however long the window.
    ///
    /// An output whose latest event is a change (a keyed list) is not
    /// coalesced to that event: the reader gets every change since the value
    /// it has read, in order, as long as they chain back to it (each change
    /// is to the event before it of its output), so that what it costs does
    /// not grow with the list; where they do not, the whole value, once.
    private func retained(after id: UInt64) -> [OutputEvent] {
        var events: [OutputEvent] = []
        // For each output sent as changes: whether its changes here chain back to what the reader read.
        var chains: [String: Bool] = [:]
        recent.forEach(last: Int(clamping: lastID - min(id, lastID))) { event in
            if event.kind == .signal {
                events.append(event)
            } else if let latest = latest[event.name], latest.isChange {
                if !event.isChange {
                    // A whole value: what follows changes it.
                    events.append(event)
                    chains[event.name] = true
                } else if chains[event.name] ?? (event.previousID <= id) {
                    events.append(event)
                    chains[event.name] = true
                } else {
                    chains[event.name] = false
                    if latest === event { events.append(event.whole(format)) }
                }
            } else if latest[event.name] === event {
                events.append(event)
            }
        }
        return events
    }

    /// Whether output `name`'s latest event is a change: its earlier events are not superseded but built on.
    func isSentAsChanges(_ name: String) -> Bool { latest[name]?.isChange ?? false }
}
