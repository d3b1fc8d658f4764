import BinderyReactorKit

/// The error tests make mutations fail with.
struct CounterError: Swift.Error, Equatable {}

/// A counter, the reactor most of these tests drive: `increase` adds one, `fail` adds one
/// and then fails that mutation, `set` replaces the count.
final class CounterReactor: Reactor {
    enum Action: Equatable {
        case increase
        case fail
        case set(Int)
    }

    enum Mutation {
        case add(Int)
        case set(Int)
    }

    struct State: Equatable {
        var count = 0
    }

    let initialState: State
    let scheduler: Scheduler

    init(count: Int = 0, scheduler: Scheduler = CurrentThreadScheduler.instance) {
        initialState = State(count: count)
        self.scheduler = scheduler
    }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .increase: return .just(.add(1))
        case .fail: return .concat(.just(.add(1)), .error(CounterError()))
        case .set(let count): return .just(.set(count))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .add(let amount): state.count += amount
        case .set(let count): state.count = count
        }
        return state
    }
}
