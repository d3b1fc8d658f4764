import BinderyRx
import BinderyRxBlocking
import Dispatch
import Foundation
import XCTest

/// `toBlocking()` waits for a sequence, as RxBlocking's does.
final class BlockingTests: XCTestCase {
    func testElementsFirstLastAndSingle() throws {
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().first(), 1)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().last(), 3)
        XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
        XCTAssertEqual(try Observable.just(7).toBlocking().single(), 7)
        XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
        XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single()) { error in
            guard case RxError.moreThanOneElement = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) { error in
            guard case RxError.noElements = error else { return XCTFail("\(error)") }
        }
    }

    func testErrorsAreThrownOrMaterialized() {
        let failing = Observable.of(1, 2).concat(Observable<Int>.error(TestError.boom))
        XCTAssertThrowsError(try failing.toBlocking().toArray()) { XCTAssertEqual($0 as? TestError, .boom) }
        guard case .failed(let elements, let error) = failing.toBlocking().materialize() else { return XCTFail() }
        XCTAssertEqual(elements, [1, 2])
        XCTAssertEqual(error as? TestError, .boom)
        guard case .completed(let all) = Observable.of(4).toBlocking().materialize() else { return XCTFail() }
        XCTAssertEqual(all, [4])
    }

    func testFirstDoesNotWaitForTheEnd() throws {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        subject.onNext(5)
        XCTAssertEqual(try subject.toBlocking().first(), 5)
        XCTAssertFalse(subject.hasObservers, "the subscription goes once the first element is in")
    }

    func testWaitsForOtherThreadsAndForTheMainQueue() throws {
        let background = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        XCTAssertEqual(try Observable.of(1, 2).observe(on: background).toBlocking().toArray(), [1, 2])
        // On the main thread the wait runs the run loop, so the main queue is served meanwhile.
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(try Observable.just(3).observe(on: MainScheduler.asyncInstance).toBlocking(timeout: 5).first(), 3)
    }

    func testTimeout() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.01).first()) { error in
            guard case RxError.timeout = error else { return XCTFail("\(error)") }
        }
    }

    func testPrimitiveSequences() throws {
        XCTAssertEqual(try Single.just(1).toBlocking().first(), 1)
        XCTAssertNil(try Maybe<Int>.empty().toBlocking().first())
    }
}
