import BinderyRx
import BinderyRxTest
import XCTest

@testable import Examples

final class SimpleViewModelTests: XCTestCase {
    func testBind() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()

        let buttonTap = scheduler.createHotObservable([
            .next(10, ()),
            .next(20, ()),
            .next(30, ()),
        ])
        let viewModel = SimpleViewModel()
        let output = viewModel.bind(SimpleViewModel.Input(buttonTap: buttonTap.asObservable()))

        let backgroundColor = scheduler.createObserver(SimpleViewModel.Color.self)
        let buttonTitle = scheduler.createObserver(String.self)
        output.backgroundColor.drive(backgroundColor).disposed(by: disposeBag)
        output.buttonTitle.drive(buttonTitle).disposed(by: disposeBag)
        output.disposable.disposed(by: disposeBag)

        scheduler.start()

        XCTAssertEqual(
            backgroundColor.events,
            [
                .next(0, .red),
                .next(10, .blue),
                .next(20, .purple),
                .next(30, .red),
            ])
        XCTAssertEqual(
            buttonTitle.events,
            [
                .next(0, "Change to blue"),
                .next(10, "Change to purple"),
                .next(20, "Change to red"),
                .next(30, "Change to blue"),
            ])
    }
}
