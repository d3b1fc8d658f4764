import BinderyRx
import BinderyRxTest
import BinderyTest
import XCTest

@testable import Examples

/// The "ViewModel done right" example, every output accounted for in order:
/// the database answers after 100 ticks of virtual time. The `Action`'s
/// `enabled` (here `canSend`) says itself again whenever the list it watches
/// changes, before the list does, as RxSwift's `Action` does.
final class SendingListViewModelTests: XCTestCase {
    private func makeStore() throws -> ViewModelTestStore {
        let store = try ViewModelTestStore { scheduler in
            SendingListViewModel(database: ServiceProvider(scheduler: scheduler, latency: .seconds(100)).databaseService)
        }
        store.receive("pending", [Outgoing]())
        store.receive("sent", [Outgoing]())
        store.receive("isSending", false)
        store.receive("canSend", false)
        return store
    }

    func testSendUploadsThePendingItemsThroughTheAction() throws {
        let store = try makeStore()
        store.send("addItem", "first")
        store.receive("canSend", true)
        store.receive("pending", [Outgoing(id: 1, text: "first")])
        store.send("addItem", "  ")  // blank: nothing changes
        store.send("addItem", "second")
        store.receive("canSend", true)
        store.receive("pending", [Outgoing(id: 1, text: "first"), Outgoing(id: 2, text: "second")])
        store.send("removeItem", 1)
        store.receive("canSend", true)
        store.receive("pending", [Outgoing(id: 2, text: "second")])
        store.send("addItem", "third")
        store.receive("canSend", true)
        store.receive("pending", [Outgoing(id: 2, text: "second"), Outgoing(id: 3, text: "third")])

        store.send("send")
        store.receive("canSend", false)
        store.receive("isSending", true)
        store.advance(by: 100)
        store.receive("canSend", false)  // the list emptied
        store.receive("pending", [Outgoing]())
        store.receive("sent", [Outgoing(id: 2, text: "second"), Outgoing(id: 3, text: "third")])
        store.receive("canSend", false)  // no longer executing, and nothing to send
        store.receive("isSending", false)
    }

    func testARefusedUploadSaysWhyAndKeepsTheItems() throws {
        let store = try makeStore()
        store.send("addItem", "please reject me")
        store.receive("canSend", true)
        store.receive("pending", [Outgoing(id: 1, text: "please reject me")])
        store.send("send")
        store.receive("canSend", false)
        store.receive("isSending", true)
        store.advance(by: 100)
        store.receive("errorMessage", "The database refused “please reject me”.")
        store.receive("canSend", true)  // the item is still there to send again
        store.receive("isSending", false)
    }

    func testSendingWithNothingPendingDoesNothing() throws {
        let store = try makeStore()
        store.send("send")
        store.advance(by: 100)
        store.finish()
    }
}
