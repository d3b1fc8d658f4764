import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

/// Drivers are observed on the test scheduler (`SharingScheduler.mock`), so
/// each delivery lands one tick after its cause; the database answers after 100 ticks.
final class SendingListViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

    private func makeViewModel() -> SendingListViewModel {
        SendingListViewModel(database: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)).databaseService)
    }

    private func record<Element>(_ driver: Driver<Element>) -> TestableObserver<Element> {
        let observer = scheduler.createObserver(Element.self)
        driver.drive(observer).disposed(by: disposeBag)
        return observer
    }

    func testSendUploadsThePendingItemsThroughTheAction() {
        var pending: TestableObserver<[String]>!, sent: TestableObserver<[String]>!
        var isSending: TestableObserver<Bool>!, canSend: TestableObserver<Bool>!
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel()
            pending = record(viewModel.pending.map { $0.map(\.text) })
            sent = record(viewModel.sent.map { $0.map(\.text) })
            isSending = record(viewModel.isSending)
            canSend = record(viewModel.canSend)
            scheduler.scheduleAt(10) { viewModel.addItem.accept("first") }
            scheduler.scheduleAt(20) { viewModel.addItem.accept("  ") }
            scheduler.scheduleAt(30) { viewModel.addItem.accept("second") }
            scheduler.scheduleAt(40) { viewModel.removeItem.accept(1) }
            scheduler.scheduleAt(50) { viewModel.addItem.accept("third") }
            scheduler.scheduleAt(60) { viewModel.send.accept(()) }
            scheduler.start()
        }
        print(pending.events, sent.events, isSending.events, canSend.events)
    }

    func testARefusedUploadSaysWhyAndKeepsTheItems() {
        var pending: TestableObserver<[String]>!, sent: TestableObserver<Int>!, isSending: TestableObserver<Bool>!
        let errors = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel()
            pending = record(viewModel.pending.map { $0.map(\.text) })
            sent = record(viewModel.sent.map(\.count))
            isSending = record(viewModel.isSending)
            viewModel.errorMessage.emit(to: errors).disposed(by: disposeBag)
            scheduler.scheduleAt(10) { viewModel.addItem.accept("please reject me") }
            scheduler.scheduleAt(20) { viewModel.send.accept(()) }
            scheduler.start()
        }
        print(pending.events, sent.events, isSending.events, errors.events)
    }

    func testSendingWithNothingPendingDoesNothing() {
        var isSending: TestableObserver<Bool>!
        let errors = scheduler.createObserver(String.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel()
            isSending = record(viewModel.isSending)
            viewModel.errorMessage.emit(to: errors).disposed(by: disposeBag)
            scheduler.scheduleAt(10) { viewModel.send.accept(()) }
            scheduler.start()
        }
        print(isSending.events, errors.events)
    }
}
