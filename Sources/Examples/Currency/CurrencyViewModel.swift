import Bindery

/// Currency rates with the article's nested Input/Output structure: `reload`
/// fetches the rates, `selectCurrency` shows one currency's detail.
struct CurrencyViewModel {
    struct Input {
        let reload: PublishRelay<Void>
        let selectCurrency: PublishRelay<String>
    }

    struct Output {
        let currencies: Driver<[CurrencyRate]>
        let showCurrencyDetail: Signal<CurrencyRate>
        let errorMessage: Driver<String>
    }

    let input: Input
    let output: Output

    init(service: CurrencyService) {
        let errorRelay = PublishRelay<String>()
        let reloadRelay = PublishRelay<Void>()
        let selectRelay = PublishRelay<String>()

        let currencies =
            reloadRelay
            .asObservable()
            .flatMapLatest { service.fetchRates() }
            .asDriver { error in
                errorRelay.accept("\(error)")
                return Driver.just([])
            }

        let showCurrencyDetail =
            selectRelay
            .withLatestFrom(currencies) { code, rates in rates.first { $0.currency == code } }
            .compactMap { $0 }
            .asSignal(onErrorSignalWith: .empty())

        input = Input(reload: reloadRelay, selectCurrency: selectRelay)
        output = Output(
            currencies: currencies,
            showCurrencyDetail: showCurrencyDetail,
            errorMessage: errorRelay.asDriver(onErrorJustReturn: "An error happened")
        )
    }
}
