import Foundation
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
    final class Lost { let next = PublishRelay<Void>(); let child: Signal<Unregistered>; init() { child = next.map { Unregistered() }.asSignal(onErrorSignalWith: .empty()) } }

    private var application: Application!

    override func setUp() {
        application = Application()
        application.register("list") { _ in ListViewModel(items: ["tea", "coffee"]) }
        application.register("detail") { context in DetailViewModel(item: (try? context.parameters(as: [String: String].self))?["item"] ?? "") }
        application.register("lost") { _ in Lost() }
    }

    override func tearDown() { application.stop() }

    private func text(_ stream: EventStream) -> String {
        var buffer = [UInt8](repeating: 0, count: 8192)
        guard case .bytes(let count) = buffer.withUnsafeMutableBytes({ stream.read(into: $0) }) else { return "" }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    func testSelectingAnItemStartsADetailSessionAndSendsItsAddress() throws {
        let list = try application.createSession("list")
        let stream = EventStream(maxBufferedBytes: 10_000)
        try list.attach(stream, lastEventID: nil)
        _ = text(stream)

        _ = try list.send(input: "selectItem", payload: Data("1".utf8))
        let event = text(stream)
        let data = try XCTUnwrap(event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        let reference = try JSONDecoder().decode(ChildReference.self, from: Data(data.utf8))
        XCTAssertEqual(reference.viewModel, "detail")
        XCTAssertTrue(event.contains("\"url\":\"/api/detail/\(reference.id)\""))

        let detail = try application.session("detail", id: reference.id)
        XCTAssertEqual(try detail.value(ofOutput: "title").map { String(decoding: $0, as: UTF8.self) }, "\"coffee\"")
        XCTAssertEqual(application.sessionCount, 2)

        let catalog = application.catalog().viewModels.first { $0.name == "list" }
        XCTAssertEqual(catalog?.outputs.first?.schema["x-bindery-view-model"], "detail")
    }

    func testAnUnregisteredChildIsReportedNotCrashed() throws {
        var logged: [String] = []
        let lock = NSLock()
        var configuration = RuntimeConfiguration()
        configuration.log = { message in lock.withLock { logged.append(message) } }
        application = Application(configuration: configuration)
        application.register("lost") { _ in Lost() }
        let session = try application.createSession("lost")
        _ = try session.send(input: "next", payload: Data())
        XCTAssertEqual(application.sessionCount, 1)
        XCTAssertTrue(lock.withLock { logged.contains { $0.contains("Unregistered is not registered") } }, "\(logged)")
    }

    func testOutputsEmittedOnAnotherThreadAreLoggedOnTheSessionQueue() throws {
        final class Ticker {
            let relay = BehaviorRelay(value: 0)
            var count: Observable<Int> { relay.asObservable() }
        }
        let ticker = Ticker()
        application.register("ticker") { _ in ticker }
        let session = try application.createSession("ticker")
        DispatchQueue.concurrentPerform(iterations: 100) { _ in ticker.relay.accept(ticker.relay.value + 1) }
        let snapshot = try session.snapshot()
        XCTAssertEqual(snapshot.lastEventID, 101, "every emission became exactly one event")
    }
}
