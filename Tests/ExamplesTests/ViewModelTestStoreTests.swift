import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The exhaustive test store on the examples, and its own failure reports.
final class ViewModelTestStoreTests: XCTestCase {
    func testSimpleViewModelExhaustively() throws {
        let store = try ViewModelTestStore { _ in SimpleViewModel() }
        store.receive("backgroundColor", SimpleViewModel.Color.red)
        store.receive("buttonTitle", "Change to blue")

        store.send("buttonTap")
        store.receive("backgroundColor", SimpleViewModel.Color.blue)
        store.receive("buttonTitle", "Change to purple")
    }

    func testProfileRefusalWithServiceTime() throws {
        let store = try ViewModelTestStore { scheduler in
            ProfileViewModel(userID: 3, services: ServiceProvider(scheduler: scheduler, latency: .seconds(1)))
        }
        store.receive("isLoading", true)
        store.advance(by: 1)
        store.receive("name", "Private Account")
        store.receive("followers", 0)
        store.receive("isFollowing", false)
        store.receive("followButtonTitle", "Follow")
        store.receive("isLoading", false)

        store.send("followTap")
        store.receive("isLoading", true)
        store.advance(by: 1)
        store.receive("errorMessage", "Private Account does not accept new followers.")
        store.receive("isLoading", false)
    }

    /// RxExample's shape: the store makes the tuple of inputs `init` takes.
    func testAViewModelThatTakesItsInputsInInit() throws {
        final class Greeting {
            let greeting: Driver<String>
            let sent: Signal<String>
            init(input: (name: Driver<String>, send: Signal<Void>)) {
                greeting = input.name.map { "Hello, \($0)" }.startWith("Hello")
                sent = input.send.withLatestFrom(input.name)
            }
        }
        let store = try ViewModelTestStore { _, input in Greeting(input: input) }
        store.receive("greeting", "Hello")
        store.send("name", "Ada")
        store.receive("greeting", "Hello, Ada")
        store.send("send")
        store.receive("sent", "Ada")
    }

    func testAnOutputTheTestDidNotReceiveFailsTheTest() throws {
        var failures: [String] = []
        let store = try ViewModelTestStore(fail: { message, _, _ in failures.append(message) }) { _ in SimpleViewModel() }
        store.receive("backgroundColor", SimpleViewModel.Color.red)
        store.finish()
        XCTAssertEqual(failures, ["the ViewModel emitted values the test did not receive:\n  buttonTitle = \"Change to blue\" at 0"])
    }

    func testAWrongValueFailsWithADiff() throws {
        var failures: [String] = []
        let store = try ViewModelTestStore(fail: { message, _, _ in failures.append(message) }) { _ in SimpleViewModel() }
        store.receive("backgroundColor", SimpleViewModel.Color.purple)
        store.skipReceived()
        XCTAssertEqual(failures, ["received something else (−expected, +received):\n− backgroundColor = \"purple\"\n+ backgroundColor = \"red\" at 0"])
    }

    func testUnknownInputsAndBadPayloadsAreReported() throws {
        var failures: [String] = []
        let store = try ViewModelTestStore(fail: { message, _, _ in failures.append(message) }) { _ in SimpleViewModel() }
        store.skipReceived()
        store.send("nope")
        store.send("buttonTap", ["not": "void"])
        XCTAssertEqual(failures.count, 2)
        XCTAssertTrue(failures[0].contains("no input 'nope'"), failures[0])
        XCTAssertTrue(failures[1].contains("takes no payload"), failures[1])
    }
}
