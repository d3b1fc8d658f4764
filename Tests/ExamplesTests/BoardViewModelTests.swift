import BinderyRx
import BinderyRxTest
import XCTest

@testable import Examples

final class BoardViewModelTests: XCTestCase {
    func testNotesArePostedTrimmedAndClearedAndTheOldestGoBeyondTheLimit() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        let viewModel = BoardViewModel()
        let notes = scheduler.createObserver([String].self)
        let posted = scheduler.createObserver(String.self)
        viewModel.notes.drive(notes).disposed(by: disposeBag)
        viewModel.posted.emit(to: posted).disposed(by: disposeBag)
        scheduler.scheduleAt(10) { viewModel.post.accept("  first  ") }
        scheduler.scheduleAt(20) { viewModel.post.accept("   ") }
        scheduler.scheduleAt(30) { viewModel.clear.accept(()) }
        scheduler.scheduleAt(40) { for index in 0...BoardViewModel.maxNotes { viewModel.post.accept("n\(index)") } }
        scheduler.start()
        XCTAssertEqual(notes.events.prefix(3).map { $0.value.element! }, [[], ["first"], []])
        XCTAssertEqual(notes.events.last?.value.element?.count, BoardViewModel.maxNotes)
        XCTAssertEqual(notes.events.last?.value.element?.first, "n1", "the oldest went")
        XCTAssertEqual(posted.events.first?.value.element, "first")
    }
}
