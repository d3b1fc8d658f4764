import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The navigation example through the exhaustive test store: the list's items
/// arrive as soon as it is made, and a selection presents a `DetailViewModel`,
/// which the store receives as `{"viewModel": "DetailViewModel"}`. As the
/// server makes a presented detail a session of its own, each detail is
/// opened in a store of its own to see what it shows. The store hears values,
/// not the end of an output, so that the list's items and a detail's title and
/// content are fixed (one value, then completed) is checked on the drivers
/// themselves with an RxTest observer. One tick is a millisecond.
final class ListViewModelTests: XCTestCase {
    /// A list ViewModel in a store, and the ViewModel itself for what the store cannot hear.
    private func makeStore() throws -> (store: ViewModelTestStore, viewModel: ListViewModel) {
        var viewModel: ListViewModel!
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { scheduler in
            viewModel = ListViewModel(services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
            return viewModel!
        }
        return (store, viewModel)
    }

    /// Every event `driver` delivers to a new subscriber, at `scheduler`'s time.
    private func events<Element>(of driver: Driver<Element>, on scheduler: TestScheduler) -> [Recorded<Event<Element>>] {
        let observer = scheduler.createObserver(Element.self)
        driver.drive(observer).dispose()
        return observer.events
    }

    /// Opens `detail` in a store of its own, as the server opens it in a session,
    /// and asserts that it shows `title` and `content` at once, and nothing else.
    private func assertShows(
        _ detail: DetailViewModel?, title: String, content: String, at time: TestTime, on scheduler: TestScheduler, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        guard let detail else { return XCTFail("no detail was presented", file: file, line: line) }
        let store = try ViewModelTestStore { _ in detail }
        store.receive("title", title, file: file, line: line)
        store.receive("content", content, file: file, line: line)
        store.finish(file: file, line: line)
        // Presented outside the list's `make`, the detail's drivers deliver on the
        // main scheduler: inline, on the test's thread.
        XCTAssertEqual(events(of: detail.title, on: scheduler), [.next(time, title), .completed(time)], file: file, line: line)
        XCTAssertEqual(events(of: detail.content, on: scheduler), [.next(time, content), .completed(time)], file: file, line: line)
    }

    func testItems() throws {
        let (store, viewModel) = try makeStore()
        store.receive("items", ItemService().items())
        XCTAssertEqual(events(of: viewModel.items, on: store.scheduler), [.next(0, ItemService().items()), .completed(0)])

        store.advance(by: 1_000)
        store.finish()  // nothing presented, and the items are not sent again
    }

    func testSelectItemPresentsItsDetail() throws {
        let (store, viewModel) = try makeStore()
        // The page holds each detail as it is presented.
        var presented: [DetailViewModel] = []
        let presenting = viewModel.presentDetailViewModel.emit(onNext: { presented.append($0) })
        defer { presenting.dispose() }
        store.receive("items", ItemService().items())

        store.advance(by: 200)
        store.finish()  // nothing is presented before a selection
        store.send("selectItem", 3)
        store.receive("presentDetailViewModel", ["viewModel": "DetailViewModel"])
        XCTAssertEqual(presented.count, 1)
        try assertShows(presented.last, title: "Drivers", content: "Shared, replaying, never failing: state for the View.", at: 200, on: store.scheduler)

        store.advance(by: 100)
        store.send("selectItem", 5)
        store.receive("presentDetailViewModel", ["viewModel": "DetailViewModel"])
        XCTAssertEqual(presented.count, 2)
        try assertShows(
            presented.last, title: "Schedulers", content: "Where and when work runs; TestScheduler runs it in virtual time.", at: 300, on: store.scheduler)

        store.advance(by: 1_000)
        store.finish()
    }

    func testSelectingAnUnknownItemPresentsNothing() throws {
        let (store, _) = try makeStore()
        store.receive("items", ItemService().items())
        store.advance(by: 200)
        store.send("selectItem", 42)
        store.advance(by: 100)
        store.send("selectItem", 0)

        store.advance(by: 1_000)
        store.finish()  // nothing presented
    }
}
