import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

final class SimpleTableViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

    /// Binds a table ViewModel to hot `fetchItems` and `selectItem` inputs and records both outputs.
    private func bind(fetchItems: [Recorded<Event<Void>>], selectItem: [Recorded<Event<Int>>]) -> (output: SimpleTableViewModel.Output, items: TestableObserver<[Item]>, showItemContent: TestableObserver<String>) {
        let viewModel = SimpleTableViewModel(itemService: ItemService())
        let output = viewModel.bind(SimpleTableViewModel.Input(
            fetchItems: scheduler.createHotObservable(fetchItems).asObservable(),
            selectItem: scheduler.createHotObservable(selectItem).asObservable()
        ))
        let items = scheduler.createObserver([Item].self)
        let showItemContent = scheduler.createObserver(String.self)
        output.items.drive(items).disposed(by: disposeBag)
        output.showItemContent.emit(to: showItemContent).disposed(by: disposeBag)
        // The output is returned so the test holds it, as a View would.
        return (output, items, showItemContent)
    }

    func testFetchItemsLoadsTheItems() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recorded = bind(fetchItems: [.next(100, ())], selectItem: [])

            scheduler.start()

            XCTAssertEqual(recorded.items.events, [
                .next(1, []),
                .next(101, ItemService().items()),
            ])
            XCTAssertEqual(recorded.showItemContent.events, [])
        }
    }

    func testSelectItemShowsTheItemsContent() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recorded = bind(fetchItems: [.next(100, ())], selectItem: [.next(200, 3), .next(300, 1)])

            scheduler.start()

            XCTAssertEqual(recorded.showItemContent.events, [
                .next(201, "Shared, replaying, never failing: state for the View."),
                .next(301, "A sequence of events over time: next* (error | completed)?"),
            ])
        }
    }

    func testSelectingAnUnknownItemShowsNothing() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recorded = bind(fetchItems: [.next(100, ())], selectItem: [.next(200, 42), .next(300, 2)])

            scheduler.start()

            XCTAssertEqual(recorded.showItemContent.events, [
                .next(301, "Both an observer and an observable; relays never terminate."),
            ])
        }
    }

    func testSelectingBeforeFetchingShowsNothing() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recorded = bind(fetchItems: [.next(100, ())], selectItem: [.next(50, 1), .next(200, 4)])

            scheduler.start()

            XCTAssertEqual(recorded.showItemContent.events, [
                .next(201, "Shared, not replaying, never failing: events for the View."),
            ])
        }
    }
}
