import Dispatch
import XCTest

@testable import BinderyReactorKit

/// `ActionSubject`, `StateRelay` and `Pulse` on their own.
final class BuildingBlockTests: XCTestCase {
    func testActionSubjectDeliversOnlyElements() {
        let subject = ActionSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        subject.onNext(1)
        subject.onError(CounterError())
        subject.onCompleted()
        subject.onNext(2)
        subscription.dispose()
        XCTAssertEqual(events.compactMap(\.element), [1, 2])
        XCTAssertEqual(events.count, 2)
    }

    func testActionSubjectForgetsADisposedSubscriber() {
        let subject = ActionSubject<Int>()
        let first = subject.subscribe()
        let second = subject.subscribe()
        XCTAssertEqual(subject.observers.count, 2)
        first.dispose()
        XCTAssertEqual(subject.observers.count, 1)
        second.dispose()
        XCTAssertTrue(subject.observers.isEmpty)
    }

    func testASubscriberDisposedDuringADeliveryMissesIt() {
        let subject = ActionSubject<Int>()
        var received: [Int] = []
        var second: Disposable?
        let first = subject.subscribe(onNext: { _ in second?.dispose() })
        second = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        first.dispose()
        XCTAssertEqual(received, [])
    }

    func testActionSubjectDeliversOneActionAtATime() {
        final class Probe: @unchecked Sendable {
            var inside = false
            var overlaps = 0
            var count = 0
        }
        let subject = ActionSubject<Int>()
        let probe = Probe()
        let subscription = subject.subscribe(onNext: { _ in
            if probe.inside { probe.overlaps += 1 }
            probe.inside = true
            probe.count += 1
            probe.inside = false
        })
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for value in 0..<250 { subject.onNext(value) }
        }
        subscription.dispose()
        XCTAssertEqual(probe.count, 2000)
        XCTAssertEqual(probe.overlaps, 0)
    }

    func testStateRelayGivesItsValueThenEverySetOneAndNeverEnds() {
        var relay = StateRelay(value: 1)
        var events: [Event<Int>] = []
        let subscription = relay.subscribe { events.append($0) }
        relay.value = 1
        relay.accept(2)
        relay = StateRelay(value: 3)
        subscription.dispose()
        XCTAssertEqual(events.compactMap(\.element), [1, 1, 2])
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(relay.value, 3)
    }

    func testStateRelayIsTheSameObservableEachTime() {
        let relay = StateRelay(value: 0)
        XCTAssertTrue(relay.asObservable() === relay.asObservable())
    }

    func testPulseCountsAssignmentsAndWrapsAround() {
        var pulse = Pulse(wrappedValue: "a")
        XCTAssertEqual(pulse.valueUpdatedCount, 0)
        pulse.wrappedValue = "a"
        pulse.value = "b"
        XCTAssertEqual(pulse.valueUpdatedCount, 2)
        pulse.valueUpdatedCount = .max
        pulse.value = "c"
        XCTAssertEqual(pulse.valueUpdatedCount, 0)
        XCTAssertEqual(pulse.projectedValue.value, "c")
    }
}
