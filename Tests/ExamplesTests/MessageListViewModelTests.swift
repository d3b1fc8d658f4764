import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The message composer through the exhaustive test store. One tick is a
/// millisecond and the message service answers 100 ms after a send; drivers
/// and signals deliver inline, so a value lands at the tick of its cause. A
/// `finish()` in the middle of a test asserts that nothing has arrived yet
/// (one tick before the service answers).
final class MessageListViewModelTests: XCTestCase {
    private let lengthError = "A message has 1 to 280 characters."

    /// A message list whose service answers after 100 ms, its initial state received.
    private func makeStore() throws -> ViewModelTestStore {
        let store = try ViewModelTestStore(scheduler: TestScheduler(initialClock: 0, resolution: 0.001)) { scheduler in
            MessageListViewModel(services: ServiceProvider(scheduler: scheduler, latency: .milliseconds(100)))
        }
        store.receive("messages", [Message]())
        store.receive("draft", "")
        store.receive("isSending", false)
        store.receive("canSend", false)
        return store
    }

    /// Waits `delay` ms, types `text` and receives it as the draft, with `canSend` turning on.
    private func typeDraft(_ text: String, _ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        store.advance(by: delay)
        store.send("editText", text, file: file, line: line)
        store.receive("draft", text, file: file, line: line)
        store.receive("canSend", true, file: file, line: line)
    }

    /// Waits `delay` ms, taps send and receives `isSending` turning on and `canSend` off.
    private func tapSend(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        store.advance(by: delay)
        store.send("sendTap", file: file, line: line)
        store.receive("isSending", true, file: file, line: line)
        store.receive("canSend", false, file: file, line: line)
    }

    /// Taps send after `delay` ms and waits out the service's 100 ms, asserting nothing arrives one tick before it answers.
    private func tapSendAndAwaitTheAnswer(_ store: ViewModelTestStore, after delay: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        tapSend(store, after: delay, file: file, line: line)
        store.letTheServiceAnswer(in: 100, file: file, line: line)
    }

    /// Receives the length error, then `isSending` turning off, then `canSend`.
    private func receiveTheLengthError(_ store: ViewModelTestStore, canSend: Bool, file: StaticString = #filePath, line: UInt = #line) {
        store.receive("errorMessage", lengthError, file: file, line: line)
        store.receive("isSending", false, file: file, line: line)
        store.receive("canSend", canSend, file: file, line: line)
    }

    func testSendTapSendsTheDraftAfterTheLatency() throws {
        let store = try makeStore()
        typeDraft("Hello", store, after: 100)
        tapSendAndAwaitTheAnswer(store, after: 100)
        store.receive("messages", [Message(id: 1, text: "Hello")])
        // Both the draft and the sending state change at 300, so `canSend` reports each.
        store.receive("draft", "")
        store.receive("canSend", false)
        store.receive("isSending", false)
        store.receive("canSend", false)
        store.assertNothingMoreArrives()  // no error
    }

    func testSendingAnEmptyDraftShowsTheError() throws {
        let store = try makeStore()
        tapSendAndAwaitTheAnswer(store, after: 200)
        receiveTheLengthError(store, canSend: false)
        store.assertNothingMoreArrives()  // no message, and the draft stays empty
    }

    func testSendingATooLongDraftShowsTheErrorAndKeepsTheDraft() throws {
        let tooLong = String(repeating: "a", count: 281)
        let store = try makeStore()
        typeDraft(tooLong, store, after: 100)
        tapSendAndAwaitTheAnswer(store, after: 100)
        receiveTheLengthError(store, canSend: true)  // the draft is still there to send again
        store.assertNothingMoreArrives()  // no message, and the draft is not cleared
    }

    func testSendTapWhileSendingIsIgnored() throws {
        let store = try makeStore()
        typeDraft("Hello", store, after: 100)
        tapSend(store, after: 100)
        store.advance(by: 40)
        store.send("editText", "World")
        store.receive("draft", "World")
        store.receive("canSend", false)  // still sending
        store.advance(by: 10)
        store.send("sendTap")  // ignored: "Hello" is on its way
        store.letTheServiceAnswer(in: 50)
        store.receive("messages", [Message(id: 1, text: "Hello")])
        // What was typed while "Hello" was on its way stays in the field.
        store.receive("isSending", false)
        store.receive("canSend", true)
        store.assertNothingMoreArrives()  // one message only, and no error
    }
}
