import Bindery

/// The edit screen of one item: a draft title, saved when valid.
public final class TodoEditViewModel {
    // Inputs.
    public let title = PublishRelay<String>()
    public let save = PublishRelay<Void>()

    // Outputs.
    public let list: Driver<String>
    public let draft: Driver<String>
    public let canSave: Driver<Bool>
    public let error: Signal<String>
    /// The title was saved: the page goes back to the list.
    public let saved: Signal<Bool>
    /// What saving did, in words, for the page the person goes back to (a flash).
    public let message: Signal<String>

    private let disposeBag = DisposeBag()

    public init(item: TodoItem, store: TodoStore) {
        let draft = BehaviorRelay(value: item.title)
        title.bind(to: draft).disposed(by: disposeBag)
        list = .just(item.list)
        self.draft = draft.asDriver()
        canSave = draft.map { if case .success = TodoStore.validate($0) { return true } else { return false } }.asDriver(onErrorJustReturn: false)
        let errors = PublishRelay<String>(), saves = PublishRelay<Bool>(), messages = PublishRelay<String>()
        error = errors.asSignal()
        saved = saves.asSignal()
        message = messages.asSignal()
        save.withLatestFrom(draft).subscribe(onNext: { text in
            switch TodoStore.validate(text) {
            case .success(let title):
                // Saved once committed: the input's answer waits for it, and fails if the write did.
                let answer = AnswerHold.take()
                store.rename(item.id ?? -1, in: item.list, to: title) { result in
                    if case .success = result {
                        messages.accept("Saved “\(title)”.")
                        saves.accept(true)
                    }
                    TodoStore.settle(result, answer: answer, refused: errors.accept)
                }
            case .failure(let problem):
                errors.accept(problem.description)
            }
        }).disposed(by: disposeBag)
    }
}
