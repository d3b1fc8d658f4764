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

    func testSendTapSendsTheDraftAfterTheLatency() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("editText", "Hello")
        store.receive("draft", "Hello")
        store.receive("canSend", true)

        store.advance(by: 100)
        store.send("sendTap")
        store.receive("isSending", true)
        store.receive("canSend", false)
        store.advance(by: 99)
        store.finish() // the message is on its way
        store.advance(by: 1)
        store.receive("messages", [Message(id: 1, text: "Hello")])
        // Both the draft and the sending state change at 300, so `canSend` reports each.
        store.receive("draft", "")
        store.receive("canSend", false)
        store.receive("isSending", false)
        store.receive("canSend", false)

        store.advance(by: 1_000)
        store.finish() // no error
    }

    func testSendingAnEmptyDraftShowsTheError() throws {
        let store = try makeStore()
        store.advance(by: 200)
        store.send("sendTap")
        store.receive("isSending", true)
        store.receive("canSend", false)
        store.advance(by: 99)
        store.finish()
        store.advance(by: 1)
        store.receive("errorMessage", lengthError)
        store.receive("isSending", false)
        store.receive("canSend", false)

        store.advance(by: 1_000)
        store.finish() // no message, and the draft stays empty
    }

    func testSendingATooLongDraftShowsTheErrorAndKeepsTheDraft() throws {
        let tooLong = String(repeating: "a", count: 281)
        let store = try makeStore()
        store.advance(by: 100)
        store.send("editText", tooLong)
        store.receive("draft", tooLong)
        store.receive("canSend", true)

        store.advance(by: 100)
        store.send("sendTap")
        store.receive("isSending", true)
        store.receive("canSend", false)
        store.advance(by: 99)
        store.finish()
        store.advance(by: 1)
        store.receive("errorMessage", lengthError)
        store.receive("isSending", false)
        store.receive("canSend", true) // the draft is still there to send again

        store.advance(by: 1_000)
        store.finish() // no message, and the draft is not cleared
    }

    func testSendTapWhileSendingIsIgnored() throws {
        let store = try makeStore()
        store.advance(by: 100)
        store.send("editText", "Hello")
        store.receive("draft", "Hello")
        store.receive("canSend", true)

        store.advance(by: 100)
        store.send("sendTap")
        store.receive("isSending", true)
        store.receive("canSend", false)
        store.advance(by: 40)
        store.send("editText", "World")
        store.receive("draft", "World")
        store.receive("canSend", false) // still sending
        store.advance(by: 10)
        store.send("sendTap") // ignored: "Hello" is on its way
        store.advance(by: 49)
        store.finish()
        store.advance(by: 1)
        store.receive("messages", [Message(id: 1, text: "Hello")])
        // What was typed while "Hello" was on its way stays in the field.
        store.receive("isSending", false)
        store.receive("canSend", true)

        store.advance(by: 1_000)
        store.finish() // one message only, and no error
    }
}
