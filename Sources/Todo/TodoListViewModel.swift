import Bindery
import Foundation

/// A todo list in the RxTodo spirit: inputs are relays, outputs are drivers
/// and signals, every value the page shows is derived here, and editing an
/// item is a screen of its own (`TodoEditViewModel`, a child session).
///
/// Every session of a list reads the same items (`TodoStore`), so pages,
/// tabs and curl on one list id see one list, live. An input's change is
/// handed to the store, and the input's answer is held until it has
/// committed (`AnswerHold`): on disk before the input is answered, with no
/// thread waiting for the disk, and answered as a failure if the write failed
/// (a full disk: 507). A title that is empty or too long is refused on
/// `error` and nothing is written.
public final class TodoListViewModel {
    /// `{"id": 3, "title": "oat milk"}`
    public struct Rename: Codable, Sendable {
        public let id: Int64
        public let title: String
    }
    /// `{"id": 3, "to": 0}`: item 3 to the top.
    public struct Move: Codable, Sendable {
        public let id: Int64
        public let to: Int
    }

    // Inputs.
    public let add = PublishRelay<String>()
    public let rename = PublishRelay<Rename>()
    public let toggle = PublishRelay<Int64>()
    public let toggleAll = PublishRelay<Void>()
    public let delete = PublishRelay<Int64>()
    public let move = PublishRelay<Move>()
    /// Item `id` one place up or down (the buttons of a row).
    public let moveUp = PublishRelay<Int64>()
    public let moveDown = PublishRelay<Int64>()
    public let clearCompleted = PublishRelay<Void>()
    public let edit = PublishRelay<Int64>()

    // Outputs.
    public let list: Driver<String>
    public let items: Driver<KeyedList<TodoItem>>
    public let remaining: Driver<Int>
    public let remainingText: Driver<String>
    public let allDone: Driver<Bool>
    public let canClear: Driver<Bool>
    public let isEmpty: Driver<Bool>
    /// Why the last change was refused.
    public let error: Signal<String>
    /// The edit screen of an item: a child session the page moves to.
    public let editing: Signal<TodoEditViewModel>

    private let disposeBag = DisposeBag()

    /// The list `list` of `store`.
    public init(list: String, store: TodoStore) throws {
        // The shared relay, read on this session's scheduler.
        let items = try store.items(of: list).asDriver()
        self.list = .just(list)
        self.items = items
        let remaining = items.map { $0.count { !$0.done } }.distinctUntilChanged()
        self.remaining = remaining
        remainingText = remaining.map { $0 == 1 ? "1 item left" : "\($0) items left" }
        allDone = items.map { !$0.isEmpty && $0.allSatisfy(\.done) }.distinctUntilChanged()
        canClear = items.map { $0.contains(where: \.done) }.distinctUntilChanged()
        isEmpty = items.map(\.isEmpty).distinctUntilChanged()

        let errors = PublishRelay<String>()
        error = errors.asSignal()
        /// Starts a change, holding the input's answer until it is committed:
        /// a change the store refused is said on `error`, and any other failure
        /// fails the answer (the store's database says how: a full disk, say).
        func attempt(_ change: (@escaping TodoStore.Completion) -> Void) {
            let answer = AnswerHold.take()
            change { TodoStore.settle($0, answer: answer, refused: errors.accept) }
        }
        add.subscribe(onNext: { title in
            switch TodoStore.validate(title) {
            case .success(let title): attempt { store.add(title, to: list, completion: $0) }
            case .failure(let problem): errors.accept(problem.description)
            }
        }).disposed(by: disposeBag)
        rename.subscribe(onNext: { rename in
            switch TodoStore.validate(rename.title) {
            case .success(let title): attempt { store.rename(rename.id, in: list, to: title, completion: $0) }
            case .failure(let problem): errors.accept(problem.description)
            }
        }).disposed(by: disposeBag)
        toggle.subscribe(onNext: { id in attempt { store.toggle(id, in: list, completion: $0) } }).disposed(by: disposeBag)
        toggleAll.subscribe(onNext: { attempt { store.toggleAll(in: list, completion: $0) } }).disposed(by: disposeBag)
        delete.subscribe(onNext: { id in attempt { store.delete(id, from: list, completion: $0) } }).disposed(by: disposeBag)
        move.subscribe(onNext: { move in attempt { store.move(move.id, in: list, to: move.to, completion: $0) } }).disposed(by: disposeBag)
        for (relay, step) in [(moveUp, -1), (moveDown, 1)] {
            relay.withLatestFrom(items) { id, items in (id, items.firstIndex { $0.id == id }) }
                .subscribe(onNext: { id, index in
                    guard let index else { return }
                    attempt { store.move(id, in: list, to: index + step, completion: $0) }
                })
                .disposed(by: disposeBag)
        }
        clearCompleted.subscribe(onNext: { attempt { store.clearCompleted(in: list, completion: $0) } }).disposed(by: disposeBag)

        editing =
            edit
            .withLatestFrom(items) { id, items in items.first { $0.id == id } }
            .compactMap { $0 }
            .map { TodoEditViewModel(item: $0, store: store) }
            .asSignal(onErrorSignalWith: .empty())
    }
}
