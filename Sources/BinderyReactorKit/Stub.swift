/// A reactor's stand-in for testing its view: while `isStubEnabled`, the view's actions are
/// recorded in `actions` instead of being mutated, and the view sees the state set on `state`.
public final class Stub<Reactor: BinderyReactorKit.Reactor> {
    private weak var reactor: Reactor?

    /// The state the view sees while the stub is enabled; setting it sets the reactor's `currentState`.
    public let state: StateRelay<Reactor.State>

    /// The actions the view sends while the stub is enabled.
    public let action: ActionSubject<Reactor.Action>

    /// Every action sent to `action`, in order.
    public private(set) var actions: [Reactor.Action] = []

    /// Whether the stub is enabled: ReactorKit 1's spelling of `Reactor.isStubEnabled`.
    @available(*, deprecated, message: "Use 'Reactor.isStubEnabled' instead.")
    public var isEnabled: Bool {
        get { reactor?.isStubEnabled ?? false }
        set { reactor?.isStubEnabled = newValue }
    }

    init(reactor: Reactor, disposeBag: DisposeBag) {
        self.reactor = reactor
        state = StateRelay(value: reactor.initialState)
        action = ActionSubject()
        state
            .subscribe(onNext: { [weak reactor] state in reactor?.currentState = state })
            .disposed(by: disposeBag)
        action
            .subscribe(onNext: { [weak self] action in self?.actions.append(action) })
            .disposed(by: disposeBag)
    }
}
