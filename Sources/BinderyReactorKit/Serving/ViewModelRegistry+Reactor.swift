import Bindery

extension ViewModelRegistry {
    /// Registers a reactor, served like a ViewModel: each of `actions` is an input that
    /// sends that action, and each field of its `State` is an output (a driver, sent
    /// when it changes; a `@Pulse` field is a signal, sent on each assignment), or the
    /// whole state is the output `state` when it has no fields. A `Codable` state is
    /// the session's to keep: saved as it changes, and the reactor starts from it when
    /// the session is rebuilt (after a restart). `make` runs in the session's first turn.
    ///
    /// ```swift
    /// app.register("tasks", actions: [.send(.refresh), .send(TaskListViewReactor.Action.deleteTask)]) { _ in
    ///     TaskListViewReactor(provider: provider)
    /// }
    /// ```
    public func register<R: Reactor>(
        _ name: String, shared: Bool = false, summary: String? = nil, actions: [ReactorAction<R.Action>],
        reactor make: @escaping @Sendable (ViewModelContext) throws -> R
    ) {
        var names = Set<String>()
        for action in actions where !names.insert(action.name).inserted {
            preconditionFailure("reactor '\(name)': two actions are named '\(action.name)'; name one with `as:`")
        }
        register(name, type: R.self, shared: shared, summary: summary, outputs: [:]) { context in
            try ReactorPorts.serve(try make(context), actions: actions)
        }
    }

    /// Registers a reactor whose actions are all its `Action`'s cases (none with a
    /// payload), each an input named after its case.
    public func register<R: Reactor>(
        _ name: String, shared: Bool = false, summary: String? = nil,
        reactor make: @escaping @Sendable (ViewModelContext) throws -> R
    ) where R.Action: CaseIterable {
        register(name, shared: shared, summary: summary, actions: R.Action.allCases.map { .send($0) }, reactor: make)
    }
}
