import Bindery

/// A reactor's ports: its actions in, its state's fields out, its state kept.
enum ReactorPorts {
    /// The ports a session serves `reactor` by; its storage goes with the session.
    static func serve<R: Reactor>(_ reactor: R, actions: [ReactorAction<R.Action>]) throws -> ListedPorts {
        var disposables: [Disposable] = []
        // Before the stream is made (reading `action` or `state` makes it): the kept state, if any.
        if let keep = keeping(R.State.self) {
            let kept = keep(reactor.initialState)
            if !reactor.storage.start(from: kept.state as! R.State) {
                preconditionFailure("\(R.self)'s state stream was made before it was served: read `action` and `state` only once the session has it")
            }
            disposables.append(reactor.state.skip(1).subscribe(onNext: { kept.save($0) }))
        }
        let send = reactor.action
        let inputs = try actions.map { action in try action.port { send.onNext($0) } }
        disposables.append(
            Disposables.create { [weak reactor] in
                if let reactor { ReactorStorageTable.shared.release(reactor) }
            })
        return ListedPorts(viewModel: reactor, inputs: inputs, outputs: outputs(of: reactor), disposables: disposables)
    }

    /// The outputs: a field of the state each, or the state whole.
    private static func outputs<R: Reactor>(of reactor: R) -> [ListedPorts.Output] {
        let fields = Mirror(reflecting: reactor.currentState).children.compactMap { child in child.label.map { ($0, child.value) } }
        guard !fields.isEmpty else { return [ListedPorts.Output(name: "state", reactor.state)] }
        let values = reactor.state.map { state in Mirror(reflecting: state).children.map(\.value) }.share(replay: 1)
        return fields.enumerated().map { index, field in
            let (label, value) = field
            let field = values.map { $0[index] }
            if let pulse = value as? AnyPulse {
                // A pulse: each assignment once, the value it was given, even an equal one.
                // The value it holds when served is no assignment: skipped, as a signal has no current value.
                let assignments = field.map { $0 as! AnyPulse }.distinctUntilChanged { $0.valueUpdatedCount == $1.valueUpdatedCount }
                return ListedPorts.Output(
                    name: propertyName(label), kind: .signal, elementType: pulse.valueType, assignments.skip(1).map(\.anyValue))
            }
            return ListedPorts.Output(name: propertyName(label), elementType: type(of: value), field.distinctUntilChanged(isSame))
        }
    }

    /// How to keep a state of type `State`: nil unless it is `Codable`; else, given the
    /// initial state, the state to start from (the kept one, in a rebuilt session) and how to save one.
    private static func keeping<State>(_ type: State.Type) -> ((State) -> (state: Any, save: (State) -> Void))? {
        guard let codable = State.self as? any Codable.Type else { return nil }
        func keep<Kept: Codable>(_ kept: Kept.Type) -> (State) -> (state: Any, save: (State) -> Void) {
            { initial in
                let relay = SessionRelay<Kept>(value: initial as! Kept)
                return (relay.value, { relay.accept($0 as! Kept) })
            }
        }
        return keep(codable)
    }

    /// A field's name as its property's: `@Pulse var alert` is stored as `_alert`.
    private static func propertyName(_ label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }

    /// Whether two field values are equal, where their type says; else they differ.
    private static func isSame(_ a: Any, _ b: Any) -> Bool {
        guard let a = a as? any Equatable else { return false }
        return a.isSame(as: b)
    }
}

extension Equatable {
    fileprivate func isSame(as other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// A `Pulse` of any value, for the serving code that reads a state through `Mirror`.
protocol AnyPulse {
    var anyValue: Any { get }
    var valueType: Any.Type { get }
    var valueUpdatedCount: UInt { get }
}

extension Pulse: AnyPulse {
    var anyValue: Any { value }
    var valueType: Any.Type { Value.self }
}
