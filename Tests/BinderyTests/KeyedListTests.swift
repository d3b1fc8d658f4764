import Foundation
import XCTest

@testable import Bindery

/// A keyed list's changes, applied as `docs/protocol.md` says a client
/// applies them, give its whole value; a stream gets changes only where it
/// has read the value they change, and the whole value everywhere else.
final class KeyedListTests: XCTestCase {
    struct Card: Codable, Equatable, Identifiable {
        let id: Int
        var text: String
    }

    /// The documented algorithm, on JSON, as a client runs it.
    private func apply(_ changes: Data, to list: [Any]) throws -> [Any] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: changes) as? [String: Any])
        var items = list
        for change in try XCTUnwrap(object["bindery.changes"] as? [[String: Any]]) {
            switch change["op"] as? String {
            case "insert": items.insert(change["item"]!, at: change["index"] as! Int)
            case "update": items[change["index"] as! Int] = change["item"]!
            case "remove": items.remove(at: change["index"] as! Int)
            case "move": items.insert(items.remove(at: change["from"] as! Int), at: change["to"] as! Int)
            default: XCTFail("unknown change \(change)")
            }
        }
        return items
    }

    private func json(_ list: [Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self)
    }

    private func whole(_ list: KeyedList<Card>) throws -> [Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: list.fullJSON()) as? [Any])
    }

    func testRandomEditsAppliedAsAClientAppliesThemGiveTheWholeValue() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            var list = KeyedList((0..<Int.random(in: 0...5, using: &generator)).map { Card(id: $0, text: "card \($0)") })
            var client = try whole(list)
            var nextID = 100
            for step in 0..<40 {
                let before = list
                switch Int.random(in: 0..<6, using: &generator) {
                case 0:
                    list = list.inserting(Card(id: nextID, text: "new \(nextID)"), at: Int.random(in: -1...list.count + 1, using: &generator))
                    nextID += 1
                case 1 where !list.isEmpty:
                    list = list.updating(Card(id: list.randomElement(using: &generator)!.id, text: "edited \(step)"))
                case 2 where !list.isEmpty:
                    list = list.removing(id: list.randomElement(using: &generator)!.id)
                case 3 where !list.isEmpty:
                    list = list.moving(id: list.randomElement(using: &generator)!.id, to: Int.random(in: -1...list.count, using: &generator))
                case 4 where list.count > 1:
                    // A batch: each index as the changes before it left the list.
                    let first = list[0], last = list[list.count - 1]
                    list = list.applying([
                        .remove(id: first.id, at: 0), .insert(Card(id: nextID, text: "batch"), at: 0),
                        .move(id: last.id, from: list.count - 1, to: 0),
                    ])
                    nextID += 1
                default:
                    list = list.removing(id: -1)  // nothing to remove: the same value
                }
                if list.version == before.version {
                    XCTAssertEqual(list.items, before.items)
                    continue
                }
                XCTAssertEqual(list.base, before.version, "a change is to the value it was made from")
                let changes = try XCTUnwrap(try list.changesJSON())
                client = try apply(changes, to: client)
                XCTAssertEqual(try json(client), try json(try whole(list)), "round \(round), step \(step)")
            }
        }
    }

    func testAValueNotMadeByAChangeIsWhole() throws {
        let list = KeyedList([Card(id: 1, text: "a")])
        XCTAssertNil(list.base)
        XCTAssertNil(try list.changesJSON())
        XCTAssertEqual(String(decoding: try JSONEncoder.bindery.encode(list), as: UTF8.self), #"[{"id":1,"text":"a"}]"#)
    }

    /// A board whose cards are a keyed list, as a ViewModel shows a store's.
    final class Board {
        let add = PublishRelay<String>()
        let cards: Driver<KeyedList<Card>>
        private let disposeBag = DisposeBag()
        init() {
            let cards = BehaviorRelay(value: KeyedList<Card>())
            add.subscribe(onNext: { cards.accept(cards.value.inserting(Card(id: cards.value.count + 1, text: $0))) }).disposed(by: disposeBag)
            self.cards = cards.asDriver()
        }
    }

    private func items(_ subscription: Subscription) -> [String] {
        var items: [Subscription.Item] = []
        _ = subscription.take(into: &items)
        return items.map {
            switch $0 {
            case .event(let event): return String(decoding: event.json, as: UTF8.self)
            case .reset: return "reset"
            case .end: return "end"
            }
        }
    }

    func testAStreamGetsChangesWhereItReadTheValueAndTheWholeWhereItDidNot() async throws {
        let application = Application()
        application.register("board") { _ in Board() }
        let session = try await application.createSession("board")
        let keepingUp = try await session.subscribe(lastEventID: nil)
        XCTAssertEqual(items(keepingUp), ["[]"], "on connect: the whole value")
        let afterOne = try await session.send(input: "add", payload: Data(#""one""#.utf8)).lastEventID
        XCTAssertEqual(items(keepingUp), [#"{"bindery.changes":[{"index":0,"item":{"id":1,"text":"one"},"op":"insert"}]}"#])

        let behind = try await session.subscribe(lastEventID: afterOne)
        _ = try await session.send(input: "add", payload: Data(#""two""#.utf8))
        _ = try await session.send(input: "add", payload: Data(#""three""#.utf8))
        XCTAssertEqual(items(keepingUp).count, 1, "two changes coalesced: a reader behind two changes")
        // `keepingUp` read both at once above; one that read up to `afterOne` and skipped one change gets the whole.
        XCTAssertEqual(items(behind), [#"[{"id":1,"text":"one"},{"id":2,"text":"two"},{"id":3,"text":"three"}]"#])

        let resumed = try await session.subscribe(lastEventID: afterOne + 1)  // read "two": one change missed
        XCTAssertEqual(items(resumed), [#"{"bindery.changes":[{"index":2,"item":{"id":3,"text":"three"},"op":"insert"}]}"#])
        let snapshot = try await session.snapshot()
        let outputs = snapshot.outputs.map { String(decoding: $0.json, as: UTF8.self) }
        XCTAssertEqual(outputs, [#"[{"id":1,"text":"one"},{"id":2,"text":"two"},{"id":3,"text":"three"}]"#], "a snapshot is whole")
    }
}
