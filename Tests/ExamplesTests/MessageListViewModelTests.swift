import BinderyRx
import BinderyRxTest
import XCTest
@testable import Examples

final class MessageListViewModelTests: XCTestCase {
    private let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    private let disposeBag = DisposeBag()

    private struct Recording {
        /// Held as a View holds it: its bindings and outputs live as long as it does.
        let viewModel: MessageListViewModel
        let messages: TestableObserver<[Message]>
        let draft: TestableObserver<String>
        let isSending: TestableObserver<Bool>
        let canSend: TestableObserver<Bool>
        let errorMessage: TestableObserver<String>
    }

    /// A message list whose service answers after 100 ms, fed `edits` and `sendTaps`, with every output recorded.
    private func messageList(edits: [(TestTime, String)], sendTaps: [TestTime]) -> Recording {
        let viewModel = MessageListViewModel(services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
        for (time, text) in edits {
            scheduler.scheduleAt(time) { viewModel.editText.accept(text) }
        }
        for time in sendTaps {
            scheduler.scheduleAt(time) { viewModel.sendTap.accept(()) }
        }
        let recording = Recording(
            viewModel: viewModel,
            messages: scheduler.createObserver([Message].self),
            draft: scheduler.createObserver(String.self),
            isSending: scheduler.createObserver(Bool.self),
            canSend: scheduler.createObserver(Bool.self),
            errorMessage: scheduler.createObserver(String.self)
        )
        viewModel.messages.drive(recording.messages).disposed(by: disposeBag)
        viewModel.draft.drive(recording.draft).disposed(by: disposeBag)
        viewModel.isSending.drive(recording.isSending).disposed(by: disposeBag)
        viewModel.canSend.drive(recording.canSend).disposed(by: disposeBag)
        viewModel.errorMessage.emit(to: recording.errorMessage).disposed(by: disposeBag)
        return recording
    }

    func testSendTapSendsTheDraftAfterTheLatency() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = messageList(edits: [(100, "Hello")], sendTaps: [200])

            scheduler.start()

            XCTAssertEqual(recording.messages.events, [.next(1, []), .next(301, [Message(id: 1, text: "Hello")])])
            XCTAssertEqual(recording.draft.events, [.next(1, ""), .next(101, "Hello"), .next(301, "")])
            XCTAssertEqual(recording.isSending.events, [.next(1, false), .next(201, true), .next(301, false)])
            // Both the draft and the sending state change at 300, so `canSend` reports each.
            XCTAssertEqual(recording.canSend.events, [
                .next(1, false),
                .next(101, true),
                .next(201, false),
                .next(301, false),
                .next(301, false),
            ])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }

    func testSendingAnEmptyDraftShowsTheError() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = messageList(edits: [], sendTaps: [200])

            scheduler.start()

            XCTAssertEqual(recording.errorMessage.events, [.next(301, "A message has 1 to 280 characters.")])
            XCTAssertEqual(recording.messages.events, [.next(1, [])])
            XCTAssertEqual(recording.draft.events, [.next(1, "")])
            XCTAssertEqual(recording.isSending.events, [.next(1, false), .next(201, true), .next(301, false)])
            XCTAssertEqual(recording.canSend.events, [.next(1, false), .next(201, false), .next(301, false)])
        }
    }

    func testSendingATooLongDraftShowsTheErrorAndKeepsTheDraft() {
        SharingScheduler.mock(scheduler: scheduler) {
            let tooLong = String(repeating: "a", count: 281)
            let recording = messageList(edits: [(100, tooLong)], sendTaps: [200])

            scheduler.start()

            XCTAssertEqual(recording.errorMessage.events, [.next(301, "A message has 1 to 280 characters.")])
            XCTAssertEqual(recording.messages.events, [.next(1, [])])
            XCTAssertEqual(recording.draft.events, [.next(1, ""), .next(101, tooLong)])
            XCTAssertEqual(recording.isSending.events, [.next(1, false), .next(201, true), .next(301, false)])
        }
    }

    func testSendTapWhileSendingIsIgnored() {
        SharingScheduler.mock(scheduler: scheduler) {
            let recording = messageList(edits: [(100, "Hello"), (240, "World")], sendTaps: [200, 250])

            scheduler.start()

            XCTAssertEqual(recording.messages.events, [.next(1, []), .next(301, [Message(id: 1, text: "Hello")])])
            XCTAssertEqual(recording.isSending.events, [.next(1, false), .next(201, true), .next(301, false)])
            // What was typed while "Hello" was on its way stays in the field.
            XCTAssertEqual(recording.draft.events, [.next(1, ""), .next(101, "Hello"), .next(241, "World")])
            XCTAssertEqual(recording.errorMessage.events, [])
        }
    }
}
