import BinderyDatabase
import XCTest

@testable import Todo

/// The store changes the rows a change touches and derives the list's new
/// value from the old one: after any sequence of changes it is exactly what
/// the database holds, and each published value carries its changes.
final class TodoStoreTests: XCTestCase {
    func testRandomChangesLeaveTheLiveListEqualToTheDatabase() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try TodoStore(database: try BinderyDatabase.open(path: path))
        let live = try store.items(of: "home")
        var generator = SystemRandomNumberGenerator()
        for step in 0..<400 {
            let ids = live.value.compactMap(\.id)
            let before = live.value.version
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1: try store.add("item \(step)", to: "home")
            case 2: if let id = ids.randomElement(using: &generator) { try store.rename(id, in: "home", to: "renamed \(step)") }
            case 3: if let id = ids.randomElement(using: &generator) { try store.toggle(id, in: "home") }
            case 4: if let id = ids.randomElement(using: &generator) { try store.delete(id, from: "home") }
            case 5:
                if let id = ids.randomElement(using: &generator) { try store.move(id, in: "home", to: Int.random(in: -1...ids.count, using: &generator)) }
            case 6: if step % 20 == 0 { try store.toggleAll(in: "home") }
            default: if step % 25 == 0 { try store.clearCompleted(in: "home") }
            }
            if live.value.version != before { XCTAssertEqual(live.value.base, before, "step \(step): a change to the value before it") }
        }
        let reopened = try TodoStore(database: try BinderyDatabase.open(path: path))
        XCTAssertEqual(live.value.items, try reopened.items(of: "home").value.items)
        XCTAssertEqual(live.value.map(\.position), live.value.map(\.position).sorted(), "positions increase along the list")
        XCTAssertEqual(Set(live.value.map(\.position)).count, live.value.count)
    }
}
