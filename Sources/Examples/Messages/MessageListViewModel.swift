import Bindery
import Foundation

/// A message list with an input field and a send button whose loading state
/// is an output (RxMVVM).
final class MessageListViewModel {
    // MARK: Inputs
    let editText = PublishRelay<String>()
    let sendTap = PublishRelay<Void>()

    // MARK: Outputs
    let messages: Driver<[Message]>
    let draft: Driver<String>
    let isSending: Driver<Bool>
    let canSend: Driver<Bool>
    let errorMessage: Signal<String>

    private let disposeBag = DisposeBag()

    init(services: ServiceProvider) {
        let messageService = services.messageService
        let text = SessionRelay(value: "")
        let sent = SessionRelay<[Message]>(value: [])
        let sending = BehaviorRelay(value: false)
        let errors = PublishRelay<String>()

        editText.bind(to: text).disposed(by: disposeBag)

        sendTap
            .withLatestFrom(text)
            .filter { _ in !sending.value }
            .flatMapLatest { draft -> Observable<(draft: String, message: Message)> in
                sending.accept(true)
                return messageService.send(draft)
                    .map { (draft, $0) }
                    .catch { error in
                        errors.accept("\(error)")
                        return .empty()
                    }
                    .do(onDispose: { sending.accept(false) })
            }
            .subscribe(onNext: { draft, message in
                sent.accept(sent.value + [message])
                // Clear the field only if it still holds what was sent: text typed
                // while the message was on its way stays.
                if text.value == draft { text.accept("") }
            })
            .disposed(by: disposeBag)

        messages = sent.asDriver()
        draft = text.asDriver()
        isSending = sending.asDriver()
        canSend = Driver.combineLatest(text.asDriver(), sending.asDriver()) { text, sending in
            !sending && !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        errorMessage = errors.asSignal()
    }
}
