import Bindery
import Foundation

/// A list of texts to send, uploaded to a database through an `Action`
/// (ViewModel done right): the action's `executing`, `enabled` and `errors`
/// are the page's loading state, button state and error message.
final class SendingListViewModel {
    // MARK: Inputs
    let addItem = PublishRelay<String>()
    let removeItem = PublishRelay<Int>()
    let send = PublishRelay<Void>()

    // MARK: Outputs
    let pending: Driver<[Outgoing]>
    let sent: Driver<[Outgoing]>
    let isSending: Driver<Bool>
    let canSend: Driver<Bool>
    let errorMessage: Signal<String>

    let uploadAction: Action<[Outgoing], [Outgoing]>
    private let disposeBag = DisposeBag()

    init(database: DatabaseService) {
        let pendingItems = SessionRelay<[Outgoing]>(value: [])
        let sentItems = SessionRelay<[Outgoing]>(value: [])
        var nextID = ((pendingItems.value + sentItems.value).map(\.id).max() ?? 0) + 1

        uploadAction = Action(enabledIf: pendingItems.map { !$0.isEmpty }) { items in
            database.upload(items)
        }

        addItem
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .subscribe(onNext: { text in
                pendingItems.accept(pendingItems.value + [Outgoing(id: nextID, text: text)])
                nextID += 1
            })
            .disposed(by: disposeBag)

        removeItem
            .subscribe(onNext: { id in pendingItems.accept(pendingItems.value.filter { $0.id != id }) })
            .disposed(by: disposeBag)

        send
            .withLatestFrom(pendingItems)
            .bind(to: uploadAction.inputs)
            .disposed(by: disposeBag)

        uploadAction.elements
            .subscribe(onNext: { uploaded in
                let ids = Set(uploaded.map(\.id))
                pendingItems.accept(pendingItems.value.filter { !ids.contains($0.id) })
                sentItems.accept(sentItems.value + uploaded)
            })
            .disposed(by: disposeBag)

        pending = pendingItems.asDriver()
        sent = sentItems.asDriver()
        isSending = uploadAction.executing.asDriver(onErrorJustReturn: false)
        canSend = uploadAction.enabled.asDriver(onErrorJustReturn: false)
        errorMessage = uploadAction.errors
            .compactMap { error -> String? in
                guard case .underlyingError(let underlying) = error else { return nil }
                return "\(underlying)"
            }
            .asSignal(onErrorSignalWith: .empty())
    }
}
