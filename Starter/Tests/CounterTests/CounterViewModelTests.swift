import BinderyTest
import Counter
import XCTest

/// Every output the ViewModel emits must be received, in order: the test store
/// fails on anything unexpected.
final class CounterViewModelTests: XCTestCase {
    func testCountingUpAndDownByTheStep() throws {
        let store = try ViewModelTestStore { _ in CounterViewModel() }
        store.receive("count", 0)
        store.receive("step", 1)
        store.receive("canDecrement", false)

        store.send("increment")
        store.receive("count", 1)
        store.receive("canDecrement", true)

        store.send("setStep", 5)
        store.receive("step", 5)
        store.send("increment")
        store.receive("count", 6)

        store.send("decrement")
        store.receive("count", 1)
        store.send("decrement")
        store.receive("count", 0)
        store.receive("canDecrement", false)
    }
}
