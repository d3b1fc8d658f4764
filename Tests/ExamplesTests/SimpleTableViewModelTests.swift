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

    func testFetchItemsLoadsTheItems() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.finish() // nothing until fetched
        store.send("fetchItems")
        store.receive("items", ItemService().items())

        store.advance(by: 1_000)
        store.finish() // no content shown
    }

    func testSelectItemShowsTheItemsContent() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("fetchItems")
        store.receive("items", ItemService().items())

        store.advance(by: 100)
        store.send("selectItem", 3)
        store.receive("showItemContent", "Shared, replaying, never failing: state for the View.")
        store.advance(by: 100)
        store.send("selectItem", 1)
        store.receive("showItemContent", "A sequence of events over time: next* (error | completed)?")

        store.advance(by: 1_000)
        store.finish()
    }

    func testSelectingAnUnknownItemShowsNothing() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("fetchItems")
        store.receive("items", ItemService().items())

        store.advance(by: 100)
        store.send("selectItem", 42)
        store.advance(by: 100)
        store.send("selectItem", 2)
        store.receive("showItemContent", "Both an observer and an observable; relays never terminate.")

        store.advance(by: 1_000)
        store.finish()
    }

    func testSelectingBeforeFetchingShowsNothing() throws {
        let store = try makeStore()
        store.advance(by: 50)
        store.send("selectItem", 1) // no items yet
        store.advance(by: 50)
        store.send("fetchItems")
        store.receive("items", ItemService().items())

        store.advance(by: 100)
        store.send("selectItem", 4)
        store.receive("showItemContent", "Shared, not replaying, never failing: events for the View.")

        store.advance(by: 1_000)
        store.finish()
    }
}
