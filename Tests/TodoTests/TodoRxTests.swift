import BinderyDatabase
import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Todo

/// The todo list the RxTest way: hot inputs at virtual times, recorded outputs.
final class TodoRxTests: XCTestCase {
    func testInputsOverTimeDriveTheCountsAndTheErrors() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        let store = try TodoStore(database: try BinderyDatabase.inMemory())
        // The store's commits publish on its writer thread: the drivers deliver there, inline.
        var made: TodoListViewModel?
        try SharingScheduler.mock(scheduler: InlineScheduler(time: scheduler)) {
            made = try TodoListViewModel(list: "home", store: store)
        }
        let viewModel = try XCTUnwrap(made)
        /// Each input applied as a session applies it: on once its write has committed.
        func applied<Element>(_ relay: PublishRelay<Element>) -> AnyObserver<Element> {
            AnyObserver { event in
                guard case .next(let element) = event else { return }
                XCTAssertTrue(applyAsInput { relay.accept(element) })
            }
        }

        scheduler.createHotObservable([.next(10, "milk"), .next(20, " "), .next(30, "bread")])
            .bind(to: applied(viewModel.add)).disposed(by: disposeBag)
        scheduler.createHotObservable([.next(40, Int64(1))])
            .bind(to: applied(viewModel.toggle)).disposed(by: disposeBag)
        scheduler.createHotObservable([.next(50, ())])
            .bind(to: applied(viewModel.clearCompleted)).disposed(by: disposeBag)

        let remaining = scheduler.createObserver(String.self)
        let canClear = scheduler.createObserver(Bool.self)
        let errors = scheduler.createObserver(String.self)
        let titles = scheduler.createObserver([String].self)
        viewModel.remainingText.drive(remaining).disposed(by: disposeBag)
        viewModel.canClear.drive(canClear).disposed(by: disposeBag)
        viewModel.error.emit(to: errors).disposed(by: disposeBag)
        viewModel.items.map { $0.map(\.title) }.drive(titles).disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(
            remaining.events,
            [
                .next(0, "0 items left"), .next(10, "1 item left"), .next(30, "2 items left"), .next(40, "1 item left"),
            ])
        XCTAssertEqual(canClear.events, [.next(0, false), .next(40, true), .next(50, false)])
        XCTAssertEqual(errors.events, [.next(20, "a todo needs a title")])
        XCTAssertEqual(
            titles.events,
            [
                .next(0, []), .next(10, ["milk"]), .next(30, ["milk", "bread"]), .next(40, ["milk", "bread"]), .next(50, ["bread"]),
            ])
    }
}
