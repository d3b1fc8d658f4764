import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The single-method binding article's table through the exhaustive test store,
/// its `Input` fed by name as the server feeds it. The items start empty and
/// everything happens at the tick of its cause (one tick is a millisecond).
final class SimpleTableViewModelTests: XCTestCase {
    /// A table ViewModel in a store, with its empty list received.
    private func makeStore() throws -> ViewModelTestStore {
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { _ in
            SimpleTableViewModel(itemService: ItemService())
        }
        store.receive("items", [Item]())
        return store
    }

    /// Waits `delay` ms, fetches the items and receives them.
    private func fetchItems(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        store.advance(by: delay)
        store.send("fetchItems", file: file, line: line)
        store.receive("items", ItemService().items(), file: file, line: line)
    }

    /// Waits `delay` ms, selects item `id` and receives `content` shown for it.
    private func selectItem(
        _ id: Int, _ store: ViewModelTestStore, after delay: TestTime, shows content: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        store.advance(by: delay)
        store.send("selectItem", id, file: file, line: line)
        store.receive("showItemContent", content, file: file, line: line)
    }

    func testFetchItemsLoadsTheItems() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.finish()  // nothing until fetched
        store.send("fetchItems")
        store.receive("items", ItemService().items())
        store.assertNothingMoreArrives()  // no content shown
    }

    func testSelectItemShowsTheItemsContent() throws {
        let store = try makeStore()
        fetchItems(store, after: 100)
        selectItem(3, store, after: 100, shows: "Shared, replaying, never failing: state for the View.")
        selectItem(1, store, after: 100, shows: "A sequence of events over time: next* (error | completed)?")
        store.assertNothingMoreArrives()
    }

    func testSelectingAnUnknownItemShowsNothing() throws {
        let store = try makeStore()
        fetchItems(store, after: 100)
        store.advance(by: 100)
        store.send("selectItem", 42)  // no such item
        selectItem(2, store, after: 100, shows: "Both an observer and an observable; relays never terminate.")
        store.assertNothingMoreArrives()
    }

    func testSelectingBeforeFetchingShowsNothing() throws {
        let store = try makeStore()
        store.advance(by: 50)
        store.send("selectItem", 1)  // no items yet
        fetchItems(store, after: 50)
        selectItem(4, store, after: 100, shows: "Shared, not replaying, never failing: events for the View.")
        store.assertNothingMoreArrives()
    }
}
