/// Runs work for an input, one execution at a time, and exposes its elements,
/// errors and progress as sequences, as the RxSwift community Action module does.
///
/// Each input sent while enabled starts an execution: `workFactory(input)`,
/// shared so every observer sees the same run. While it runs the action is
/// disabled; an input sent while disabled emits `ActionError.notEnabled` on `errors`.
public final class Action<Input, Element> {
    /// Makes the work for an input.
    public typealias WorkFactory = (Input) -> Observable<Element>

    /// The condition, besides not executing, for the action to be enabled.
    public let _enabledIf: Observable<Bool>
    /// Makes the work for an input.
    public let workFactory: WorkFactory
    /// Send inputs here to execute the action.
    public let inputs: AnyObserver<Input>
    /// The elements of every execution.
    public let elements: Observable<Element>
    /// The errors of every execution, and the refusals while disabled.
    public let errors: Observable<ActionError>
    /// Each execution's work, as it starts.
    public let executionObservables: Observable<Observable<Element>>
    /// Whether an execution is running; replays the current state.
    public let executing: Observable<Bool>
    /// Whether an input would start an execution; replays the current state.
    public let enabled: Observable<Bool>

    private let disposeBag = DisposeBag()

    /// An action running the work `workFactory` makes, enabled while `enabledIf` says so and it is not executing.
    public convenience init<Work: ObservableConvertibleType>(enabledIf: Observable<Bool> = Observable.just(true), workFactory: @escaping (Input) -> Work) where Work.Element == Element {
        self.init(enabledIf: enabledIf) { (input: Input) -> Observable<Element> in workFactory(input).asObservable() }
    }

    /// An action running the work `workFactory` makes, enabled while `enabledIf` says so and it is not executing.
    public init(enabledIf: Observable<Bool> = Observable.just(true), workFactory: @escaping WorkFactory) {
        _enabledIf = enabledIf
        self.workFactory = workFactory

        let enabledSubject = BehaviorSubject<Bool>(value: false)
        enabled = enabledSubject.asObservable()

        let errorsSubject = PublishSubject<ActionError>()
        errors = errorsSubject.asObservable()

        let inputsSubject = PublishSubject<Input>()
        inputs = AnyObserver { event in inputsSubject.on(event) }

        executionObservables = inputsSubject
            .withLatestFrom(enabledSubject) { input, enabled in (input, enabled) }
            .flatMap { input, enabled -> Observable<Observable<Element>> in
                guard enabled else {
                    errorsSubject.onNext(.notEnabled)
                    return .empty()
                }
                // `.forever` so that observers subscribing after a synchronous run still see its result, without running it again.
                let work = workFactory(input)
                    .do(onError: { errorsSubject.onNext(.underlyingError($0)) })
                    .share(replay: 1, scope: .forever)
                return .just(work)
            }
            .share()

        elements = executionObservables.flatMap { $0.catch { _ in .empty() } }

        executing = executionObservables
            .flatMap { work -> Observable<Bool> in
                // Its elements dropped, typed as Bool: what `work` ends with, and nothing else.
                let finished = work.filter { _ in false }.map { _ in false }.catch { _ in .empty() }
                return Observable.concat([.just(true), finished, .just(false)])
            }
            .startWith(false)
            .share(replay: 1, scope: .forever)

        Observable
            .combineLatest(executing, enabledIf) { !$0 && $1 }
            .bind(to: enabledSubject)
            .disposed(by: disposeBag)
    }

    /// Executes the action with `value` and returns that execution's work, replayed;
    /// it fails with `ActionError.notEnabled` if the action was disabled.
    @discardableResult
    public func execute(_ value: Input) -> Observable<Element> {
        defer { inputs.onNext(value) }
        let subject = ReplaySubject<Element>.createUnbounded()
        let work = executionObservables.map { $0.catch { throw ActionError.underlyingError($0) } }
        let refusal = errors.map { Observable<Element>.error($0) }
        Observable.merge(work, refusal)
            .take(1)
            .flatMap { $0 }
            .subscribe(subject)
            .disposed(by: disposeBag)
        return subject.asObservable()
    }
}

/// An action whose work only completes or fails.
public typealias CompletableAction<Input> = Action<Input, Never>

extension Action where Input == Void {
    /// Executes the action.
    @discardableResult
    public func execute() -> Observable<Element> { execute(()) }
}

extension Action {
    /// The errors the work failed with, without the refusals.
    public var underlyingError: Observable<Swift.Error> {
        errors.compactMap { error in
            guard case .underlyingError(let underlying) = error else { return nil }
            return underlying
        }
    }
}
