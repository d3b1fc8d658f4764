import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

final class CurrencyViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

    /// The rates of `rates.json`, sorted by code.
    private let rates = [
        CurrencyRate(currency: "AUD", rate: 1.6412),
        CurrencyRate(currency: "BRL", rate: 6.1834),
        CurrencyRate(currency: "CAD", rate: 1.4987),
        CurrencyRate(currency: "CHF", rate: 0.9412),
        CurrencyRate(currency: "CNY", rate: 7.8123),
        CurrencyRate(currency: "GBP", rate: 0.8634),
        CurrencyRate(currency: "INR", rate: 92.41),
        CurrencyRate(currency: "JPY", rate: 163.27),
        CurrencyRate(currency: "KRW", rate: 1512.8),
        CurrencyRate(currency: "MXN", rate: 20.87),
        CurrencyRate(currency: "NOK", rate: 11.742),
        CurrencyRate(currency: "SEK", rate: 11.503),
        CurrencyRate(currency: "SGD", rate: 1.4621),
        CurrencyRate(currency: "USD", rate: 1.0852),
        CurrencyRate(currency: "ZAR", rate: 19.94),
    ]

    private struct Recording {
        /// Held as a View holds it: its bindings and outputs live as long as it does.
        let viewModel: CurrencyViewModel
        let currencies: TestableObserver<[CurrencyRate]>
        let showCurrencyDetail: TestableObserver<CurrencyRate>
        let errorMessage: TestableObserver<String>
    }

    /// A currency ViewModel whose service answers after 100 ms, fed `reloads` and `selections`, with every output recorded.
    private func currencies(reloads: [TestTime], selections: [(TestTime, String)]) -> Recording {
        let service = ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)).currencyService
        let viewModel = CurrencyViewModel(service: service)
        for time in reloads {
            scheduler.scheduleAt(time) { viewModel.input.reload.accept(()) }
        }
        for (time, code) in selections {
            scheduler.scheduleAt(time) { viewModel.input.selectCurrency.accept(code) }
        }
        let recording = Recording(
            viewModel: viewModel,
            currencies: scheduler.createObserver([CurrencyRate].self),
            showCurrencyDetail: scheduler.createObserver(CurrencyRate.self),
            errorMessage: scheduler.createObserver(String.self)
        )
        viewModel.output.currencies.drive(recording.currencies).disposed(by: disposeBag)
        viewModel.output.showCurrencyDetail.emit(to: recording.showCurrencyDetail).disposed(by: disposeBag)
        viewModel.output.errorMessage.drive(recording.errorMessage).disposed(by: disposeBag)
        return recording
    }

    func testReloadLoadsTheRatesSortedByCode() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = currencies(reloads: [100], selections: [])

            scheduler.start()

            XCTAssertEqual(recording.currencies.events, [.next(201, rates)])
            XCTAssertEqual(recording.showCurrencyDetail.events, [])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }

    func testSelectCurrencyShowsItsRate() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = currencies(reloads: [100], selections: [(300, "USD"), (400, "JPY")])

            scheduler.start()

            XCTAssertEqual(recording.showCurrencyDetail.events, [
                .next(301, CurrencyRate(currency: "USD", rate: 1.0852)),
                .next(401, CurrencyRate(currency: "JPY", rate: 163.27)),
            ])
        }
    }

    func testSelectingAnUnknownCodeShowsNothing() {
        SharingScheduler.mock(scheduler: scheduler) {
            // 50: no rates yet; 300: no such currency.
            let recording = currencies(reloads: [100], selections: [(50, "USD"), (300, "XXX"), (400, "GBP")])

            scheduler.start()

            XCTAssertEqual(recording.showCurrencyDetail.events, [.next(401, CurrencyRate(currency: "GBP", rate: 0.8634))])
        }
    }

    func testReloadingTwiceKeepsOnlyTheLatestFetch() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = currencies(reloads: [100, 150], selections: [])

            scheduler.start()

            XCTAssertEqual(recording.currencies.events, [.next(251, rates)])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }
}
