import Bindery

/// Search as you type, written as an iOS team writes it: the query is
/// debounced on `MainScheduler.instance`, the service answers on a background
/// scheduler, and its answer comes back with `observe(on: MainScheduler.instance)`
/// before it reaches the outputs. On a server a session's turns are its
/// ViewModel's main thread, so all of it runs there, in order.
final class OperatorSearchViewModel {
    // MARK: Inputs
    let query = PublishRelay<String>()

    // MARK: Outputs
    let results: Driver<[String]>
    let searching: Driver<Bool>
    let summary: Driver<String>

    init(service: OperatorSearchService) {
        let searching = BehaviorRelay(value: false)
        let results =
            query
            .startWith("")
            .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .distinctUntilChanged()
            .flatMapLatest { query -> Observable<[String]> in
                guard !query.isEmpty else { return .just([]) }
                searching.accept(true)
                return service.search(query)
                    .observe(on: MainScheduler.instance)
                    .do(onNext: { _ in MainScheduler.ensureExecutingOnScheduler() }, onDispose: { searching.accept(false) })
            }
            .asDriver(onErrorJustReturn: [])
        self.results = results
        self.searching = searching.asDriver()
        summary = Driver.combineLatest(query.asDriver(onErrorJustReturn: "").startWith(""), results) { query, results in
            query.trimmingCharacters(in: .whitespaces).isEmpty ? "Type part of an operator's name" : "\(results.count) found"
        }
    }
}
