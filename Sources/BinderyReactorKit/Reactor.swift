/// A view's logic apart from the view, ReactorKit's unidirectional flow: actions come in,
/// `mutate(action:)` turns each into mutations, `reduce(state:mutation:)` folds them into
/// the state, and the view renders `state`.
///
/// Everything but `initialState` has a default: a reactor declares its `Action`, `State`
/// (and `Mutation`, which defaults to `Action`) and the steps it needs. The stream is made
/// on first use of `action` or `state`, once, and lives as long as the reactor.
///
/// Threading: actions are observed on `scheduler`, `CurrentThreadScheduler` by default, so
/// an action sent in a session's turn is mutated and reduced in that turn, and one sent from
/// a state subscriber or from `reduce` waits until the current one is done. A mutation that
/// arrives from another thread (a service's answer) is reduced on that thread: bring it back
/// with `observe(on: MainScheduler.instance)` in `mutate(action:)`, as ReactorKit asks.
public protocol Reactor: AnyObject {
    /// What the user does.
    associatedtype Action
    /// A change to the state.
    associatedtype Mutation = Action
    /// What the view shows.
    associatedtype State

    /// The scheduler type `scheduler` is.
    typealias Scheduler = ImmediateSchedulerType

    /// The actions from the view: send user input here. It never ends: errors and completion sent to it are dropped.
    var action: ActionSubject<Action> { get }

    /// The state before any action.
    var initialState: State { get }

    /// The state last emitted by `state`.
    var currentState: State { get }

    /// The state, starting with the current one: made once, shared by every subscriber.
    var state: Observable<State> { get }

    /// Where actions are observed: `CurrentThreadScheduler.instance` unless a reactor says otherwise.
    var scheduler: Scheduler { get }

    /// Transforms the actions before they are mutated (merge other sources here); called once, as the stream is made.
    func transform(action: Observable<Action>) -> Observable<Action>

    /// The mutations one action makes: the place for side effects and asynchronous work.
    func mutate(action: Action) -> Observable<Mutation>

    /// Transforms the mutations before they are reduced (merge a service's events here); called once, as the stream is made.
    func transform(mutation: Observable<Mutation>) -> Observable<Mutation>

    /// The state after `mutation`: a pure function, called for every mutation.
    func reduce(state: State, mutation: Mutation) -> State

    /// Transforms the state stream (logging, say); called once, as the stream is made.
    func transform(state: Observable<State>) -> Observable<State>
}
