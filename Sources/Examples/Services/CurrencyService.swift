import Bindery
import Foundation

/// A currency and its rate against the euro.
struct CurrencyRate: Codable, Equatable {
    let currency: String
    let rate: Double
}

/// Currency rates read from `rates.json` (the article's `FileDataService`).
final class CurrencyService {
    private struct Converter: Decodable {
        let base: String
        let rates: [String: Double]
    }

    private let scheduler: SchedulerType
    private let latency: RxTimeInterval

    init(scheduler: SchedulerType, latency: RxTimeInterval) {
        self.scheduler = scheduler
        self.latency = latency
    }

    func fetchRates() -> Observable<[CurrencyRate]> {
        delayed(latency, on: scheduler) {
            let converter = try ExampleData.load("rates", as: Converter.self)
            return converter.rates.map { CurrencyRate(currency: $0.key, rate: $0.value) }.sorted { $0.currency < $1.currency }
        }
    }
}
