import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The currency example through the exhaustive test store. One tick is a
/// millisecond and the rate service answers 100 ms after a reload; drivers and
/// signals deliver inline, so a value lands at the tick of its cause. A
/// `finish()` in the middle of a test asserts that nothing has arrived yet
/// (say one tick before the service answers).
final class CurrencyViewModelTests: XCTestCase {
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

    /// A currency ViewModel whose service answers after 100 ms. It says nothing
    /// until reloaded: neither rates nor an error.
    private func makeStore() throws -> ViewModelTestStore {
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { scheduler in
            CurrencyViewModel(service: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)).currencyService)
        }
        store.finish()  // nothing before a reload
        return store
    }

    /// Waits `delay` ms and sends `reload`.
    private func reload(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        store.advance(by: delay)
        store.send("reload", file: file, line: line)
    }

    /// Reloads after `delay` ms and receives the rates when the service answers 100 ms later, nothing arriving one tick before.
    private func reloadAndReceiveTheRates(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        reload(store, after: delay, file: file, line: line)
        store.letTheServiceAnswer(in: 100, file: file, line: line)
        store.receive("currencies", rates, file: file, line: line)
    }

    /// Waits `delay` ms, selects `code` and receives its detail at `rate`.
    private func selectCurrency(
        _ code: String, _ store: ViewModelTestStore, after delay: TestTime, showsRate rate: Double, file: StaticString = #filePath, line: UInt = #line
    ) {
        store.advance(by: delay)
        store.send("selectCurrency", code, file: file, line: line)
        store.receive("showCurrencyDetail", CurrencyRate(currency: code, rate: rate), file: file, line: line)
    }

    func testReloadLoadsTheRatesSortedByCode() throws {
        let store = try makeStore()
        reloadAndReceiveTheRates(store, after: 100)
        store.assertNothingMoreArrives()  // no error, no detail, nothing more
    }

    func testSelectCurrencyShowsItsRate() throws {
        let store = try makeStore()
        reloadAndReceiveTheRates(store, after: 100)
        selectCurrency("USD", store, after: 100, showsRate: 1.0852)
        selectCurrency("JPY", store, after: 100, showsRate: 163.27)
        store.assertNothingMoreArrives()
    }

    func testSelectingAnUnknownCodeShowsNothing() throws {
        let store = try makeStore()
        store.advance(by: 50)
        store.send("selectCurrency", "USD")  // no rates yet
        reloadAndReceiveTheRates(store, after: 50)

        store.advance(by: 100)
        store.send("selectCurrency", "XXX")  // no such currency
        store.finish()
        selectCurrency("GBP", store, after: 100, showsRate: 0.8634)
        store.assertNothingMoreArrives()
    }

    func testReloadingTwiceKeepsOnlyTheLatestFetch() throws {
        let store = try makeStore()
        reload(store, after: 100)
        reload(store, after: 50)
        store.letTheServiceAnswer(in: 100)  // nothing at 249: the first fetch, due at 200, was dropped
        store.receive("currencies", rates)
        store.assertNothingMoreArrives()  // no error, and the dropped fetch never answers
    }
}
