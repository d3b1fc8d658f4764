import Foundation

/// What a reactor keeps besides its own properties: its action subject and state stream,
/// its current state, its stub. ReactorKit hangs these on the reactor with Objective-C
/// associated objects; here `ReactorStorageTable` holds them, by the reactor's identity.
///
/// Thread safety: any thread. The streams and the stub are made once, under `making`,
/// which is held while the reactor's transform hooks run (so that a second caller waits
/// for the first's stream rather than making its own); it is recursive, as a hook may read
/// `action` or `currentState` meanwhile. The plain values have their own lock, never held
/// while calling out.
final class ReactorStorage: @unchecked Sendable {
    /// The reactor; nil once it has deinitialized, which is how the table knows to drop this.
    private(set) weak var reactor: AnyObject?

    /// Disposes the state stream's connection and the stub's subscriptions when this goes.
    let disposeBag = DisposeBag()

    private let making = NSRecursiveLock()
    /// `ActionSubject<Action>`, guarded by `making`.
    private var action: AnyObject?
    /// `Observable<State>`, guarded by `making`.
    private var state: AnyObject?
    private var isMakingState = false
    /// `Stub<Reactor>`, guarded by `making`.
    private var stub: AnyObject?

    private let values = NSLock()
    private var currentState: Any?
    private var isStubEnabled = false
    /// The state to start from instead of `initialState` (a served reactor's kept state).
    private var startingState: Any?

    init(reactor: AnyObject) {
        self.reactor = reactor
    }

    /// The action subject and the state stream fed from it, made by `makeState` on first
    /// use. The state is nil when a transform hook asks while `makeState` runs: the
    /// subject exists by then, the stream does not yet.
    func streams<Action, State>(
        makeState: (ActionSubject<Action>) -> Observable<State>
    ) -> (action: ActionSubject<Action>, state: Observable<State>?) {
        making.withLock {
            if let state {
                return (action as! ActionSubject<Action>, (state as! Observable<State>))
            }
            if isMakingState { return (action as! ActionSubject<Action>, nil) }
            let subject = ActionSubject<Action>()
            action = subject
            isMakingState = true
            defer { isMakingState = false }
            let made = makeState(subject)
            state = made
            return (subject, made)
        }
    }

    /// The stub, made by `make` on first use.
    func stub<Stub: AnyObject>(orMake make: () -> Stub) -> Stub {
        making.withLock {
            if let stub { return stub as! Stub }
            let made = make()
            stub = made
            return made
        }
    }

    /// The current state; `initial` (read outside the lock) until one is set.
    func currentState<State>(initial: () -> State) -> State {
        if let state = values.withLock({ currentState }) { return state as! State }
        let state = initial()
        return values.withLock {
            if currentState == nil { currentState = state }
            return currentState as! State
        }
    }

    /// Sets the current state.
    func setCurrentState<State>(_ state: State) {
        values.withLock { currentState = state }
    }

    /// Starts the stream, when it is made, from `state` rather than `initialState`;
    /// false if the stream is made already.
    func start<State>(from state: State) -> Bool {
        making.withLock {
            guard self.state == nil, !isMakingState else { return false }
            values.withLock {
                startingState = state
                currentState = state
            }
            return true
        }
    }

    /// The state given to `start(from:)`, if any.
    func startingState<State>(as type: State.Type) -> State? {
        values.withLock { startingState as? State }
    }

    /// Whether the reactor's action and state are its stub's.
    var isStubbed: Bool {
        get { values.withLock { isStubEnabled } }
        set { values.withLock { isStubEnabled = newValue } }
    }
}
