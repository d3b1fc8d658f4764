import BinderyReactorKit
import XCTest

@testable import Examples

/// The reactor version of the todo list, tested as ReactorKit's README tests a reactor:
/// send actions, read `currentState`.
final class TaskListReactorTests: XCTestCase {
    func testAddToggleDeleteAndClear() {
        let reactor = TaskListReactor()
        reactor.action.onNext(.add("  oat milk "))
        reactor.action.onNext(.add("bread"))
        XCTAssertEqual(reactor.currentState.tasks.map(\.title), ["oat milk", "bread"])
        XCTAssertEqual(reactor.currentState.remaining, "2 tasks left")
        XCTAssertFalse(reactor.currentState.canClear)

        reactor.action.onNext(.toggle(1))
        XCTAssertEqual(reactor.currentState.remaining, "1 task left")
        XCTAssertTrue(reactor.currentState.canClear)
        reactor.action.onNext(.clearDone)
        XCTAssertEqual(reactor.currentState.tasks.map(\.id), [2])
        reactor.action.onNext(.add("eggs"))
        XCTAssertEqual(reactor.currentState.tasks.map(\.id), [2, 3], "ids are not reused")
        reactor.action.onNext(.delete(2))
        reactor.action.onNext(.delete(2))
        XCTAssertEqual(reactor.currentState.tasks.map(\.title), ["eggs"])
    }

    func testARefusalIsAPulseEvenWhenItRepeats() {
        let reactor = TaskListReactor()
        var notices: [String?] = []
        let subscription = reactor.pulse(\.$notice).skip(1).subscribe(onNext: { notices.append($0) })
        reactor.action.onNext(.add("   "))
        reactor.action.onNext(.add(""))
        reactor.action.onNext(.toggle(9))
        reactor.action.onNext(.add(String(repeating: "x", count: 201)))
        subscription.dispose()
        XCTAssertEqual(notices, ["A task needs a title.", "A task needs a title.", "There is no task 9.", "A title has at most 200 characters."])
        XCTAssertTrue(reactor.currentState.tasks.isEmpty)
    }
}
