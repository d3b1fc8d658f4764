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
        store.finish() // nothing before a reload
        return store
    }

    func testReloadLoadsTheRatesSortedByCode() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("reload")
        store.advance(by: 99)
        store.finish() // the rates are on their way
        store.advance(by: 1)
        store.receive("currencies", rates)

        store.advance(by: 1_000)
        store.finish() // no error, no detail, nothing more
    }

    func testSelectCurrencyShowsItsRate() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("reload")
        store.advance(by: 100)
        store.receive("currencies", rates)

        store.advance(by: 100)
        store.send("selectCurrency", "USD")
        store.receive("showCurrencyDetail", CurrencyRate(currency: "USD", rate: 1.0852))
        store.advance(by: 100)
        store.send("selectCurrency", "JPY")
        store.receive("showCurrencyDetail", CurrencyRate(currency: "JPY", rate: 163.27))

        store.advance(by: 1_000)
        store.finish()
    }

    func testSelectingAnUnknownCodeShowsNothing() throws {
        let store = try makeStore()
        store.advance(by: 50)
        store.send("selectCurrency", "USD") // no rates yet
        store.advance(by: 50)
        store.send("reload")
        store.advance(by: 100)
        store.receive("currencies", rates)

        store.advance(by: 100)
        store.send("selectCurrency", "XXX") // no such currency
        store.finish()
        store.advance(by: 100)
        store.send("selectCurrency", "GBP")
        store.receive("showCurrencyDetail", CurrencyRate(currency: "GBP", rate: 0.8634))

        store.advance(by: 1_000)
        store.finish()
    }

    func testReloadingTwiceKeepsOnlyTheLatestFetch() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("reload")
        store.advance(by: 50)
        store.send("reload")
        store.advance(by: 99)
        store.finish() // the first fetch, due at 200, was dropped
        store.advance(by: 1)
        store.receive("currencies", rates)

        store.advance(by: 1_000)
        store.finish() // no error, and the dropped fetch never answers
    }
}
