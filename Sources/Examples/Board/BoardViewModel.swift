import Bindery

/// One board for everyone (`register("board", shared: true)`): notes anyone
/// posts, live on every page that shows it; in a cluster, one instance for
/// every node. The notes are its declared state: they outlive the process,
/// and a new owner starts from them.
final class BoardViewModel {
    /// Longest note kept, and most notes kept (the oldest go).
    static let maxNoteLength = 200
    static let maxNotes = 100

    // MARK: Inputs
    let post = PublishRelay<String>()
    let clear = PublishRelay<Void>()

    // MARK: Outputs
    let notes: Driver<[String]>
    let count: Driver<Int>
    /// Each note as it is posted.
    let posted: Signal<String>

    private let disposeBag = DisposeBag()

    init() {
        let notes = SessionRelay<[String]>(value: [])
        self.notes = notes.asDriver()
        count = notes.asDriver().map(\.count).distinctUntilChanged()
        let accepted = post.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maxNoteLength)) }.filter { !$0.isEmpty }
        posted = accepted.asSignal(onErrorSignalWith: .empty())
        accepted.withLatestFrom(notes) { note, notes in Array((notes + [note]).suffix(Self.maxNotes)) }
            .bind(to: notes)
            .disposed(by: disposeBag)
        clear.map { [] }.bind(to: notes).disposed(by: disposeBag)
    }
}
