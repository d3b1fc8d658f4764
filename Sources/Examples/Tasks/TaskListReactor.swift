import Bindery
import BinderyReactorKit

/// The todo list as a ReactorKit reactor, in the style of RxTodo's
/// `TaskListViewReactor`: actions in, mutations out of `mutate`, one state folded
/// by `reduce`. Served, each action is an input and each state field an output;
/// the state is `Codable`, so the session keeps it across restarts.
public final class TaskListReactor: Reactor {
    /// One task.
    public struct Task: Codable, Identifiable, Equatable, Sendable {
        public let id: Int
        public var title: String
        public var isDone: Bool
    }

    /// What the user does.
    public enum Action {
        case add(String)
        case toggle(Int)
        case delete(Int)
        case clearDone
    }

    /// A change to the state.
    public enum Mutation {
        case insert(String)
        case toggle(Int)
        case delete(Int)
        case deleteDone
        case refuse(String)
    }

    /// What the page shows.
    public struct State: Codable {
        public var tasks = KeyedList<Task>()
        public var remaining = "Nothing to do"
        public var canClear = false
        /// Why an action was refused: a toast, once per refusal.
        @Pulse public var notice: String?
    }

    /// The longest title a task takes.
    static let maximumTitleLength = 200

    public let initialState = State()

    public init() {}

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .add(let title):
            let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            if title.isEmpty { return .just(.refuse("A task needs a title.")) }
            if title.count > Self.maximumTitleLength { return .just(.refuse("A title has at most \(Self.maximumTitleLength) characters.")) }
            return .just(.insert(title))
        case .toggle(let id):
            return currentState.tasks.index(of: id) == nil ? .just(.refuse("There is no task \(id).")) : .just(.toggle(id))
        case .delete(let id):
            return currentState.tasks.index(of: id) == nil ? .empty() : .just(.delete(id))
        case .clearDone:
            return .just(.deleteDone)
        }
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .insert(let title):
            let id = (state.tasks.map(\.id).max() ?? 0) + 1
            state.tasks = state.tasks.inserting(Task(id: id, title: title, isDone: false))
        case .toggle(let id):
            if let index = state.tasks.index(of: id) {
                var task = state.tasks[index]
                task.isDone.toggle()
                state.tasks = state.tasks.updating(task)
            }
        case .delete(let id):
            state.tasks = state.tasks.removing(id: id)
        case .deleteDone:
            state.tasks = state.tasks.filter(\.isDone).reduce(state.tasks) { $0.removing(id: $1.id) }
        case .refuse(let why):
            state.notice = why
        }
        let left = state.tasks.filter { !$0.isDone }.count
        state.remaining = state.tasks.isEmpty ? "Nothing to do" : left == 1 ? "1 task left" : "\(left) tasks left"
        state.canClear = state.tasks.contains(where: \.isDone)
        return state
    }
}
