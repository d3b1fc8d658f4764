import BinderyRx
import Dispatch
import Synchronization
import XCTest

/// Subjects and relays receive from many threads at once and must still deliver
/// serially: no two deliveries overlap and none is lost.
final class ThreadSafetyTests: XCTestCase {
    private let threads = 8
    private let perThread = 500

    /// Counts deliveries and fails if two ever overlap.
    private final class SerialProbe: @unchecked Sendable {
        private let inside = Atomic(false)
        private(set) var count = 0
        private(set) var overlaps = 0

        func receive() {
            if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps += 1 }
            count += 1
            inside.store(false, ordering: .releasing)
        }
    }

    private func hammer(_ send: @escaping () -> Void) {
        let perThread = perThread
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { send() }
        }
    }

    private func assertSerial<Source: ObservableType>(_ source: Source, initial: Int, send: @escaping () -> Void, file: StaticString = #filePath, line: UInt = #line) {
        let probe = SerialProbe()
        let subscription = source.subscribe(onNext: { _ in probe.receive() })
        hammer(send)
        subscription.dispose()
        XCTAssertEqual(probe.count, initial + threads * perThread, file: file, line: line)
        XCTAssertEqual(probe.overlaps, 0, file: file, line: line)
    }

    func testPublishSubject() {
        let subject = PublishSubject<Int>()
        assertSerial(subject, initial: 0) { subject.onNext(1) }
    }

    func testBehaviorSubject() {
        let subject = BehaviorSubject(value: 0)
        assertSerial(subject, initial: 1) { subject.onNext(1) }
    }

    func testReplaySubject() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        assertSerial(subject, initial: 0) { subject.onNext(1) }
    }

    func testPublishRelay() {
        let relay = PublishRelay<Int>()
        assertSerial(relay, initial: 0) { relay.accept(1) }
    }

    func testBehaviorRelay() {
        let relay = BehaviorRelay(value: 0)
        assertSerial(relay, initial: 1) { relay.accept(relay.value + 1) }
    }

    func testReplayRelay() {
        let relay = ReplayRelay<Int>.create(bufferSize: 1)
        assertSerial(relay, initial: 0) { relay.accept(1) }
    }

    func testChainOverTwoSubjectsDeliversSerially() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let merged = Observable.merge(a.asObservable(), b.asObservable()).map { $0 + 1 }.share()
        assertSerial(merged, initial: 0) {
            if Bool.random() { a.onNext(1) } else { b.onNext(2) }
        }
    }

    func testSubscribingAndDisposingWhileSending() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<200 {
                if index.isMultiple(of: 2) {
                    subject.onNext(value)
                } else {
                    shared.subscribe(onNext: { _ in }).dispose()
                }
            }
        }
        XCTAssertFalse(subject.hasObservers)
    }
}
