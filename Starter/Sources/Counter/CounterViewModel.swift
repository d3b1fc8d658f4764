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

    public init() {
        let step = setStep.map { max(1, min($0, 100)) }.startWith(1).share(replay: 1)
        let changes = Observable.merge(
            increment.withLatestFrom(step),
            decrement.withLatestFrom(step).map { -$0 }
        )
        let count = changes.scan(0) { max(0, $0 + $1) }.startWith(0).share(replay: 1)
        self.count = count.asDriver(onErrorJustReturn: 0)
        self.step = step.asDriver(onErrorJustReturn: 1)
        canDecrement = count.map { $0 > 0 }.distinctUntilChanged().asDriver(onErrorJustReturn: false)
    }
}
