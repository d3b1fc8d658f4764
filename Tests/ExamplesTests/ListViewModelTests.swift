import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

final class ListViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

    func testItems() {
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = ListViewModel(services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
            let items = scheduler.createObserver([Item].self)
            viewModel.items.drive(items).disposed(by: disposeBag)

            scheduler.start()

            XCTAssertEqual(items.events, [.next(1, ItemService().items()), .completed(1)])
        }
    }

    func testSelectItemPresentsItsDetail() {
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = ListViewModel(services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
            let presented = scheduler.createObserver(DetailViewModel.self)
            let titles = scheduler.createObserver(String.self)
            let contents = scheduler.createObserver(String.self)
            viewModel.presentDetailViewModel.emit(to: presented).disposed(by: disposeBag)
            // The page shows each detail as it is presented.
            viewModel.presentDetailViewModel
                .emit(onNext: { [disposeBag] detail in
                    detail.title.drive(titles).disposed(by: disposeBag)
                    detail.content.drive(contents).disposed(by: disposeBag)
                })
                .disposed(by: disposeBag)
            scheduler.scheduleAt(200) { viewModel.selectItem.accept(3) }
            scheduler.scheduleAt(300) { viewModel.selectItem.accept(5) }

            scheduler.start()

            XCTAssertEqual(presented.events.map(\.time), [201, 301])
            XCTAssertEqual(titles.events, [
                .next(202, "Drivers"), .completed(202),
                .next(302, "Schedulers"), .completed(302),
            ])
            XCTAssertEqual(contents.events, [
                .next(202, "Shared, replaying, never failing: state for the View."), .completed(202),
                .next(302, "Where and when work runs; TestScheduler runs it in virtual time."), .completed(302),
            ])
        }
    }

    func testSelectingAnUnknownItemPresentsNothing() {
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = ListViewModel(services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
            let presented = scheduler.createObserver(DetailViewModel.self)
            viewModel.presentDetailViewModel.emit(to: presented).disposed(by: disposeBag)
            scheduler.scheduleAt(200) { viewModel.selectItem.accept(42) }
            scheduler.scheduleAt(300) { viewModel.selectItem.accept(0) }

            scheduler.start()

            XCTAssertEqual(presented.events.map(\.time), [])
        }
    }
}
