extension Reactor {
    /// This reactor's storage.
    var storage: ReactorStorage { ReactorStorageTable.shared.storage(for: self) }

    /// The actions from the view; the stub's while `isStubEnabled`. Reading it makes the state stream.
    public var action: ActionSubject<Action> {
        let storage = self.storage
        if storage.isStubbed { return stub(in: storage).action }
        return storage.streams(makeState: { makeState(from: $0, in: storage) }).action
    }

    /// The state, replaying the current one to each subscriber; the stub's while `isStubEnabled`.
    public var state: Observable<State> {
        let storage = self.storage
        if storage.isStubbed { return stub(in: storage).state.asObservable() }
        guard let state = storage.streams(makeState: { makeState(from: $0, in: storage) }).state else {
            preconditionFailure("\(Self.self).state read by its own transform hook, while the state stream is being made")
        }
        return state
    }

    /// The state `state` emitted last; `initialState` before that.
    public internal(set) var currentState: State {
        get { storage.currentState(initial: { initialState }) }
        set { storage.setCurrentState(newValue) }
    }

    /// `CurrentThreadScheduler.instance`, as in ReactorKit: actions are handled where they
    /// are sent, and one sent while another is handled waits for it.
    public var scheduler: Scheduler { CurrentThreadScheduler.instance }

    /// The actions, unchanged.
    public func transform(action: Observable<Action>) -> Observable<Action> { action }

    /// No mutations.
    public func mutate(action: Action) -> Observable<Mutation> { .empty() }

    /// The mutations, unchanged.
    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> { mutation }

    /// The state, unchanged.
    public func reduce(state: State, mutation: Mutation) -> State { state }

    /// The state stream, unchanged.
    public func transform(state: Observable<State>) -> Observable<State> { state }

    /// The state stream fed by `actions`: connected at once, held by `storage` (whose
    /// dispose bag holds the connection), and holding the reactor only weakly. A mutation's
    /// error ends that mutation alone; an error in reducing or in the transformed stream
    /// ends the state stream, which then keeps its last state.
    private func makeState(from actions: ActionSubject<Action>, in storage: ReactorStorage) -> Observable<State> {
        let action = transform(action: actions.asObservable().observe(on: scheduler))
        let mutation = transform(
            mutation: action.flatMap { [weak self] action -> Observable<Mutation> in
                guard let self else { return .empty() }
                return self.mutate(action: action).catch { _ in .empty() }
            })
        let initialState = storage.startingState(as: State.self) ?? self.initialState
        let state =
            mutation
            .scan(initialState) { [weak self] state, mutation in
                self?.reduce(state: state, mutation: mutation) ?? state
            }
            .catch { _ in .empty() }
            .startWith(initialState)
        let shared = transform(state: state)
            .do(onNext: { [weak storage] state in storage?.setCurrentState(state) })
            .replay(1)
        shared.connect().disposed(by: storage.disposeBag)
        return shared.asObservable()
    }
}

extension Reactor where Action == Mutation {
    /// The action itself, as the one mutation.
    public func mutate(action: Action) -> Observable<Mutation> { .just(action) }
}
