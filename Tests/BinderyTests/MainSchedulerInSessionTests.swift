import Foundation
import XCTest

@testable import Bindery

/// On iOS a ViewModel runs on the main thread; here its session's turns are
/// that thread: `MainScheduler.instance`, taken in a turn, runs work there.
final class MainSchedulerInSessionTests: XCTestCase {
    /// Where work it schedules on the main scheduler ran: `session` (its own
    /// turn), `other` (another scheduler's), `elsewhere`.
    final class Where {
        let go = PublishRelay<Void>()
        let background = PublishRelay<Void>()
        let ran: Driver<[String]>
        private let bag = DisposeBag()

        init() {
            let own = SerialScheduler.current
            let log = BehaviorRelay<[String]>(value: [])
            self.ran = log.asDriver()
            func ran(_ what: String) { log.accept(log.value + [what]) }
            func place() -> String {
                guard let current = SerialScheduler.current else { return "elsewhere" }
                MainScheduler.ensureExecutingOnScheduler()
                return current === own ? "session" : "other"
            }
            // Later, on the main scheduler taken here, in the session's first turn.
            let main = MainScheduler.instance
            go.subscribe(onNext: {
                _ = main.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
                    ran("relative: \(place())")
                    return Disposables.create()
                }
                _ = MainScheduler.asyncInstance.schedule(()) { _ in
                    ran("async: \(place())")
                    return Disposables.create()
                }
            }).disposed(by: bag)
            // A service answering on another thread, observed on the main scheduler.
            background
                .flatMapLatest {
                    Observable.just(()).delay(.milliseconds(10), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
                        .observe(on: MainScheduler.instance)
                }
                .debounce(.milliseconds(10), scheduler: MainScheduler.instance)
                .subscribe(onNext: { ran("observed: \(place())") })
                .disposed(by: bag)
        }
    }

    func testWorkOnTheMainSchedulerRunsInTheSessionsTurns() async throws {
        let application = Application()
        defer { application.stop() }
        application.register("where") { _ in Where() }
        let session = try await application.createSession("where")
        _ = try await session.send(input: "go", payload: Data())
        _ = try await session.send(input: "background", payload: Data())
        var ran: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while ran.count < 3, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
            let snapshot = try await session.snapshot()
            let json = snapshot.outputs.first { $0.name == "ran" }?.json ?? Data("[]".utf8)
            ran = try JSONDecoder().decode([String].self, from: json)
        }
        XCTAssertEqual(Set(ran), ["async: session", "relative: session", "observed: session"])
    }

    func testOutsideASessionTheMainSchedulerIsTheMainQueue() {
        XCTAssertNil(SerialScheduler.current)
        let ran = expectation(description: "ran")
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                XCTAssertTrue(Thread.isMainThread)
                ran.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [ran], timeout: 5)
    }

    /// `ConcurrentMainScheduler` (RxTodo subscribes on it): inline where the
    /// main scheduler runs, there from anywhere else.
    func testTheConcurrentMainSchedulerRunsInlineInATurnAndInTheTurnFromElsewhere() async throws {
        let session = SerialScheduler(label: "session")
        let places = Locked<[String]>([])
        func note(_ what: String) { places.withLock { $0.append(what) } }
        let (inline, later) = session.sync { () -> (ConcurrentMainScheduler, Observable<Int>) in
            let scheduler = ConcurrentMainScheduler.instance
            _ = scheduler.schedule(()) { _ in
                note("inline in its turn: \(session.isCurrent)")
                return Disposables.create()
            }
            note("after it")
            return (scheduler, Observable.just(1).subscribeOn(scheduler))
        }
        // Subscribed from the test's own thread, outside the session's turns.
        let done = expectation(description: "subscribed")
        _ = later.subscribe(onNext: { _ in note("subscribed in its turn: \(session.isCurrent)") }, onCompleted: { done.fulfill() })
        await fulfillment(of: [done], timeout: 5)
        XCTAssertNotNil(inline)
        XCTAssertEqual(places.withLock { $0 }, ["inline in its turn: true", "after it", "subscribed in its turn: true"])
    }
}
