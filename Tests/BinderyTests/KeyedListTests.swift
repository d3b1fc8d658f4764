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
                // No changes worth sending (as many as the items): the whole value goes.
                client = try list.changesJSON().map { try apply($0, to: client) } ?? whole(list)
                XCTAssertEqual(try json(client), try json(try whole(list)), "round \(round), step \(step)")
            }
        }
    }

    func testAListOfOneIsSentWholeRatherThanAsItsLongerChange() throws {
        let one = KeyedList([Card(id: 1, text: "a")]).updating(Card(id: 1, text: "b"))
        XCTAssertNotNil(one.base)
        XCTAssertNil(try one.changesJSON())
        let two = KeyedList([Card(id: 1, text: "a"), Card(id: 2, text: "b")]).updating(Card(id: 1, text: "c"))
        XCTAssertNotNil(try two.changesJSON())
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

    func testAStreamGetsEveryChangeSinceTheValueItRead() async throws {
        let application = Application()
        application.register("board") { _ in Board() }
        let session = try await application.createSession("board")
        let keepingUp = try await session.subscribe(lastEventID: nil)
        XCTAssertEqual(items(keepingUp), ["[]"], "on connect: the whole value")
        let afterOne = try await session.send(input: "add", payload: Data(#""one""#.utf8)).lastEventID
        XCTAssertEqual(items(keepingUp), [#"[{"id":1,"text":"one"}]"#], "a list of one is shorter whole than as its change")

        let behind = try await session.subscribe(lastEventID: afterOne)
        _ = try await session.send(input: "add", payload: Data(#""two""#.utf8))
        _ = try await session.send(input: "add", payload: Data(#""three""#.utf8))
        // Behind by two changes: both, in order, not coalesced to the whole list.
        let both = [
            #"{"bindery.changes":[{"index":1,"item":{"id":2,"text":"two"},"op":"insert"}]}"#,
            #"{"bindery.changes":[{"index":2,"item":{"id":3,"text":"three"},"op":"insert"}]}"#,
        ]
        XCTAssertEqual(items(keepingUp), both)
        XCTAssertEqual(items(behind), both)

        let resumed = try await session.subscribe(lastEventID: afterOne + 1)  // read "two": one change missed
        XCTAssertEqual(items(resumed), [#"{"bindery.changes":[{"index":2,"item":{"id":3,"text":"three"},"op":"insert"}]}"#])
        let snapshot = try await session.snapshot()
        let outputs = snapshot.outputs.map { String(decoding: $0.json, as: UTF8.self) }
        XCTAssertEqual(outputs, [#"[{"id":1,"text":"one"},{"id":2,"text":"two"},{"id":3,"text":"three"}]"#], "a snapshot is whole")
    }

    /// Cards added, renamed, removed and moved at random, streams reading at
    /// random moments, some resuming from where they were: every stream, applying
    /// what it reads as a client does, ends with the session's list.
    final class Deck {
        let edit = PublishRelay<Int>()
        let cards: Driver<KeyedList<Card>>
        private let disposeBag = DisposeBag()
        init() {
            let cards = BehaviorRelay(value: KeyedList<Card>())
            var next = 1
            edit.subscribe(onNext: { seed in
                let list = cards.value
                switch seed % 5 {
                case 0, 1:
                    cards.accept(list.inserting(Card(id: next, text: "card \(next)"), at: seed % (list.count + 1)))
                    next += 1
                case 2 where !list.isEmpty: cards.accept(list.updating(Card(id: list[seed % list.count].id, text: "edit \(seed)")))
                case 3 where !list.isEmpty: cards.accept(list.removing(id: list[seed % list.count].id))
                case 4 where !list.isEmpty: cards.accept(list.moving(id: list[seed % list.count].id, to: seed % list.count))
                default: cards.accept(KeyedList(list.items))  // a value not made by a change: sent whole
                }
            }).disposed(by: disposeBag)
            self.cards = cards.asDriver()
        }
    }

    func testStreamsReadingAtRandomMomentsAlwaysHoldTheList() async throws {
        var configuration = RuntimeConfiguration()
        configuration.retainedEvents = 16  // small, so that some readers fall out of it
        let application = Application(configuration: configuration)
        application.register("deck") { _ in Deck() }
        let session = try await application.createSession("deck")
        var generator = SystemRandomNumberGenerator()
        var readers: [(subscription: Subscription, list: [Any], lastID: UInt64)] = []
        for _ in 0..<4 { readers.append((try await session.subscribe(lastEventID: nil), [], 0)) }

        func read(_ index: Int) throws {
            var taken: [Subscription.Item] = []
            _ = readers[index].subscription.take(into: &taken)
            for item in taken {
                switch item {
                case .event(let event):
                    let value = try JSONSerialization.jsonObject(with: event.json)
                    readers[index].list = try (value as? [Any]) ?? apply(event.json, to: readers[index].list)
                    readers[index].lastID = event.id
                case .reset: readers[index].list = []
                case .end: XCTFail("ended")
                }
            }
        }
        for step in 0..<600 {
            _ = try await session.send(input: "edit", payload: Data("\(Int.random(in: 0..<1_000, using: &generator))".utf8))
            let index = Int.random(in: 0..<readers.count, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6: try read(index)
            case 6:  // it goes away and comes back where it was
                readers[index].subscription = try await session.subscribe(lastEventID: readers[index].lastID)
            default: break  // it falls behind
            }
            if step % 50 == 49 {
                for index in readers.indices { try read(index) }
                let snapshot = try await session.snapshot()
                let whole = try XCTUnwrap(snapshot.outputs.first?.json)
                for reader in readers {
                    XCTAssertEqual(try json(reader.list), try json(try XCTUnwrap(JSONSerialization.jsonObject(with: whole) as? [Any])), "step \(step)")
                }
            }
        }
    }

    func testAStreamFurtherBehindThanTheLogKeepsGetsTheWholeValueOnce() async throws {
        var configuration = RuntimeConfiguration()
        configuration.retainedEvents = 2
        let application = Application(configuration: configuration)
        application.register("board") { _ in Board() }
        let session = try await application.createSession("board")
        let slow = try await session.subscribe(lastEventID: nil)
        XCTAssertEqual(items(slow), ["[]"])
        for text in ["one", "two", "three"] { _ = try await session.send(input: "add", payload: Data("\"\(text)\"".utf8)) }
        XCTAssertEqual(items(slow), [#"[{"id":1,"text":"one"},{"id":2,"text":"two"},{"id":3,"text":"three"}]"#], "the first change is forgotten")
    }
}
