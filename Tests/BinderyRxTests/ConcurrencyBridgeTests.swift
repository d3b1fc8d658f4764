import BinderyRx
import XCTest

/// The async bridges: `values`, `value` and `AsyncSequence.asObservable()`.
final class ConcurrencyBridgeTests: XCTestCase {
    func testValuesIteratesElementsAndThrowsTheError() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).values { received.append(value) }
        XCTAssertEqual(received, [1, 2, 3])
        do {
            for try await _ in Observable<Int>.error(TestError.boom).values {}
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, .boom)
        }
    }

    func testCancellingTheIterationDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        let firstReceived = expectation(description: "first element")
        let iteration = Task {
            for try await _ in subject.asObservable().values { firstReceived.fulfill() }
        }
        while !subject.hasObservers { await Task.yield() }
        subject.onNext(1)
        await fulfillment(of: [firstReceived], timeout: 10)
        iteration.cancel()
        while subject.hasObservers { await Task.yield() }
        XCTAssertFalse(subject.hasObservers)
    }

    func testValuesOfASequenceCancelledBeforeAnyEventThrowCancellationError() async {
        let iteration = Task {
            for try await _ in Observable<Int>.never().values {}
        }
        iteration.cancel()
        do {
            try await iteration.value
            XCTFail("the iteration ended without an error")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func testInfallibleValues() async {
        var received: [Int] = []
        for await value in Infallible.of(1, 2).values { received.append(value) }
        XCTAssertEqual(received, [1, 2])
    }

    func testDriverValues() async {
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "driver")) {
            driver = Observable.of(1, 2).asDriver(onErrorJustReturn: 0)
        }
        var received: [Int] = []
        for await value in driver.values { received.append(value) }
        XCTAssertEqual(received, [1, 2])
    }

    func testSingleMaybeCompletableValue() async throws {
        let single = try await Single.just(4).value
        XCTAssertEqual(single, 4)
        let empty = try await Maybe<Int>.empty().value
        XCTAssertNil(empty)
        try await Completable.empty().value
        do {
            _ = try await Single<Int>.error(TestError.boom).value
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? TestError, .boom)
        }
    }

    func testCancellingTheWaitDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        let waiting = Task { try await subject.asSingle().value }
        while !subject.hasObservers { await Task.yield() }
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("not cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(subject.hasObservers)
    }

    func testAsyncSequenceAsObservableAndSingleCreate() throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let received = expectation(description: "completed")
        var elements: [Int] = []
        _ = stream.asObservable().subscribe(onNext: { elements.append($0) }, onCompleted: { received.fulfill() })
        let made = expectation(description: "single")
        var result: Int?
        _ = Single<Int>.create { 40 + 2 }.subscribe(onSuccess: { result = $0; made.fulfill() })
        wait(for: [received, made], timeout: 10)
        XCTAssertEqual(elements, [1, 2, 3])
        XCTAssertEqual(result, 42)
    }
}
