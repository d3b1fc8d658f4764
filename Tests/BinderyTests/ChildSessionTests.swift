import Foundation
import Logging
import XCTest

@testable import Bindery

/// An output that emits a ViewModel starts a new session, and the client gets its URL.
final class ChildSessionTests: XCTestCase {
    final class DetailViewModel {
        let title: Driver<String>
        init(item: String) { title = .just(item) }
    }

    final class ListViewModel {
        let selectItem = PublishRelay<Int>()
        let presentDetailViewModel: Signal<DetailViewModel>
        init(items: [String]) {
            presentDetailViewModel = selectItem.map { DetailViewModel(item: items[$0]) }.asSignal(onErrorSignalWith: .empty())
        }
    }

    final class Unregistered {}
    final class Lost {
        let next = PublishRelay<Void>()
        let child: Signal<Unregistered>
        init() { child = next.map { Unregistered() }.asSignal(onErrorSignalWith: .empty()) }
    }

    private var application: Application!

    override func setUp() {
        // Whoever serves the application says where a session lives; the runtime knows no URL.
        application = Application(configuration: .init(), wireFormat: .jsonLines, sessionURL: { "/sessions/\($0)/\($1)" })
        application.register("list") { _ in ListViewModel(items: ["tea", "coffee"]) }
        application.register("detail") { context in DetailViewModel(item: (try? context.parameters(as: [String: String].self))?["item"] ?? "") }
        application.register("lost") { _ in Lost() }
    }

    override func tearDown() { application.stop() }

    /// The events waiting in `feed`.
    private func events(_ feed: Subscription) -> [OutputEvent] {
        var items: [Subscription.Item] = []
        _ = feed.take(into: &items)
        return items.compactMap { if case .event(let event) = $0 { return event } else { return nil } }
    }

    func testSelectingAnItemStartsADetailSessionAndSendsItsAddress() async throws {
        let list = try await application.createSession("list")
        let feed = try await list.subscribe(lastEventID: nil)
        _ = events(feed)

        _ = try await list.send(input: "selectItem", payload: Data("1".utf8))
        let event = try XCTUnwrap(events(feed).first)
        XCTAssertEqual(event.name, "presentDetailViewModel")
        let reference = try JSONDecoder().decode(ChildReference.self, from: event.json)
        XCTAssertEqual(reference.viewModel, "detail")
        XCTAssertEqual(reference.url, "/sessions/detail/\(reference.id)")

        let detail = try application.session("detail", id: reference.id)
        let title = try await detail.value(ofOutput: "title").map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(title, "\"coffee\"")
        XCTAssertEqual(application.sessionCount, 2)

        let catalog = await application.catalog()
        XCTAssertEqual(catalog.viewModels.first { $0.name == "list" }?.outputs.first?.schema["x-bindery-view-model"], "detail")
    }

    func testAnUnregisteredChildIsReportedNotCrashed() async throws {
        let logged = Captured()
        var configuration = RuntimeConfiguration()
        configuration.logger = Logger(label: "test") { _ in logged }
        application = Application(configuration: configuration)
        application.register("lost") { _ in Lost() }
        let session = try await application.createSession("lost")
        _ = try await session.send(input: "next", payload: Data())
        XCTAssertEqual(application.sessionCount, 1)
        XCTAssertTrue(logged.lines.contains { $0.contains("Unregistered is not registered") }, "\(logged.lines)")
    }

    func testOutputsEmittedOnAnotherThreadAreLoggedOnTheSessionQueue() async throws {
        /// Its relay may be called from any thread (as every relay).
        final class Ticker: @unchecked Sendable {
            let relay = BehaviorRelay(value: 0)
            var count: Observable<Int> { relay.asObservable() }
        }
        let ticker = Ticker()
        application.register("ticker") { _ in ticker }
        let session = try await application.createSession("ticker")
        DispatchQueue.concurrentPerform(iterations: 100) { _ in ticker.relay.accept(ticker.relay.value + 1) }
        let snapshot = try await session.snapshot()
        XCTAssertEqual(snapshot.lastEventID, 101, "every emission became exactly one event")
    }
}

/// A log handler that keeps each message with its metadata as one line.
final class Captured: LogHandler, @unchecked Sendable {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    private let lock = NSLock()
    private var kept: [String] = []
    var lines: [String] { lock.withLock { kept } }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lock.withLock { kept.append(([event.message.description] + fields).joined(separator: " ")) }
    }
}
