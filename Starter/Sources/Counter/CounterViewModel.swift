import Bindery

/// A counter: the inputs are relays a page (or curl) sends to, the outputs are
/// drivers it binds to. Every value the page shows is derived here.
public final class CounterViewModel {
    // Inputs: POST /api/counter/<session>/inputs/<name>
    public let increment = PublishRelay<Void>()
    public let decrement = PublishRelay<Void>()
    public let setStep = PublishRelay<Int>()

    // Outputs: server-sent events named after each property.
    public let count: Driver<Int>
    public let step: Driver<Int>
    public let canDecrement: Driver<Bool>

    private let disposeBag = DisposeBag()

    public init() {
        // The session's state: a `SessionRelay` is a `BehaviorRelay` the app keeps
        // with the session, in its database, so a restart or a deploy finds the
        // counter where it was.
        let count = SessionRelay(value: 0)
        let step = SessionRelay(value: 1)
        setStep.map { max(1, min($0, 100)) }.bind(to: step).disposed(by: disposeBag)
        Observable.merge(increment.withLatestFrom(step), decrement.withLatestFrom(step).map { -$0 })
            .withLatestFrom(count) { change, count in max(0, count + change) }
            .bind(to: count).disposed(by: disposeBag)
        self.count = count.asDriver()
        self.step = step.asDriver()
        canDecrement = count.map { $0 > 0 }.distinctUntilChanged().asDriver(onErrorJustReturn: false)
    }
}
