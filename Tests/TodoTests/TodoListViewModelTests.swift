import BinderyDatabase
import BinderyTest
import Foundation
import XCTest

@testable import Todo

/// The todo list in virtual time, on an in-memory database: every input, the
/// refusals, the derived outputs.
final class TodoListViewModelTests: XCTestCase {
    private var store: TodoStore!

    override func setUpWithError() throws {
        store = try TodoStore(database: try BinderyDatabase.inMemory())
    }

    private func item(_ id: Int64, _ title: String, done: Bool = false, at position: Int, list: String = "home") -> TodoItem {
        TodoItem(id: id, list: list, title: title, done: done, position: position)
    }

    private func makeStore() throws -> ViewModelTestStore {
        let store = self.store!
        return try ViewModelTestStore { _ in try TodoListViewModel(list: "home", store: store) }
    }

    func testAnEmptyListThenAddingToggleAndClear() throws {
        let vm = try makeStore()
        vm.receive("list", "home")
        vm.receive("items", [TodoItem]())
        vm.receive("remaining", 0)
        vm.receive("remainingText", "0 items left")
        vm.receive("allDone", false)
        vm.receive("canClear", false)
        vm.receive("isEmpty", true)

        vm.send("add", "  milk ")
        vm.receive("items", [item(1, "milk", at: 0)])
        vm.receive("remaining", 1)
        vm.receive("remainingText", "1 item left")
        vm.receive("isEmpty", false)

        vm.send("add", "bread")
        vm.receive("items", [item(1, "milk", at: 0), item(2, "bread", at: 1)])
        vm.receive("remaining", 2)
        vm.receive("remainingText", "2 items left")

        vm.send("toggle", 1)
        vm.receive("items", [item(1, "milk", done: true, at: 0), item(2, "bread", at: 1)])
        vm.receive("remaining", 1)
        vm.receive("remainingText", "1 item left")
        vm.receive("canClear", true)

        vm.send("toggleAll")
        vm.receive("items", [item(1, "milk", done: true, at: 0), item(2, "bread", done: true, at: 1)])
        vm.receive("remaining", 0)
        vm.receive("remainingText", "0 items left")
        vm.receive("allDone", true)

        vm.send("clearCompleted")
        vm.receive("items", [TodoItem]())
        vm.receive("allDone", false)
        vm.receive("canClear", false)
        vm.receive("isEmpty", true)
    }

    func testRenameMoveAndDelete() throws {
        for title in ["a", "b", "c"] { try store.add(title, to: "home") }
        let vm = try makeStore()
        vm.skipReceived()

        vm.send("move", TodoListViewModel.Move(id: 3, to: 0))
        vm.receive("items", [item(3, "c", at: 0), item(1, "a", at: 1), item(2, "b", at: 2)])
        vm.send("move", TodoListViewModel.Move(id: 3, to: 99))
        vm.receive("items", [item(1, "a", at: 0), item(2, "b", at: 1), item(3, "c", at: 2)])

        vm.send("moveDown", 1)
        vm.receive("items", [item(2, "b", at: 0), item(1, "a", at: 1), item(3, "c", at: 2)])
        vm.send("moveUp", 1)
        vm.receive("items", [item(1, "a", at: 0), item(2, "b", at: 1), item(3, "c", at: 2)])
        vm.send("moveUp", 1)  // already first: nothing changes, so nothing is sent

        vm.send("rename", TodoListViewModel.Rename(id: 2, title: "bee"))
        vm.receive("items", [item(1, "a", at: 0), item(2, "bee", at: 1), item(3, "c", at: 2)])

        vm.send("delete", 1)
        vm.receive("items", [item(2, "bee", at: 1), item(3, "c", at: 2)])
        vm.receive("remaining", 2)
        vm.receive("remainingText", "2 items left")
    }

    func testEmptyOverlongAndControlCharacterTitlesAreRefusedAndNothingIsWritten() throws {
        let vm = try makeStore()
        vm.skipReceived()
        vm.send("add", "   ")
        vm.receive("error", "a todo needs a title")
        // SQLite's text ends at a NUL: these would be stored as "abc" and "".
        for title in ["abc\u{0}def", "\u{0}", "two\nlines", "bell\u{7}"] {
            vm.send("add", title)
            vm.receive("error", "a title is one line of text, without control characters")
        }
        vm.send("add", String(repeating: "x", count: TodoStore.maxTitleLength + 1))
        vm.receive("error", "a title has at most \(TodoStore.maxTitleLength) characters")
        try store.add("ok", to: "home")
        vm.receive("items", [item(1, "ok", at: 0)])
        vm.receive("remaining", 1)
        vm.receive("remainingText", "1 item left")
        vm.receive("isEmpty", false)
        vm.send("rename", TodoListViewModel.Rename(id: 1, title: ""))
        vm.receive("error", "a todo needs a title")
        XCTAssertEqual(try store.items(of: "home").value.map(\.title), ["ok"])
    }

    func testTwoViewModelsOfOneListSeeEachOthersChangesAndOtherListsDoNot() throws {
        let first = try makeStore(), second = try makeStore()
        let store = self.store!
        let other = try ViewModelTestStore { _ in try TodoListViewModel(list: "work", store: store) }
        first.skipReceived()
        second.skipReceived()
        other.skipReceived()
        first.send("add", "shared")
        second.receive("items", [item(1, "shared", at: 0)])
        second.receive("remaining", 1)
        second.receive("remainingText", "1 item left")
        second.receive("isEmpty", false)
        first.skipReceived()
        other.finish()  // nothing reached the other list
    }

    func testEditingAnItemIsAChildScreenThatSavesAValidTitle() throws {
        try store.add("milk", to: "home")
        let edit = try ViewModelTestStore { [store] _ in
            TodoEditViewModel(item: try XCTUnwrap(store!.items(of: "home").value.first), store: store!)
        }
        edit.receive("list", "home")
        edit.receive("draft", "milk")
        edit.receive("canSave", true)
        edit.send("title", " ")
        edit.receive("draft", " ")
        edit.receive("canSave", false)
        edit.send("save")
        edit.receive("error", "a todo needs a title")
        edit.send("title", "oat milk")
        edit.receive("draft", "oat milk")
        edit.receive("canSave", true)
        edit.send("save")
        edit.receive("message", "Saved “oat milk”.")
        edit.receive("saved", true)
        XCTAssertEqual(try store.items(of: "home").value.map(\.title), ["oat milk"])
    }

    func testTheChangesAreOnDiskForTheNextStore() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("todo-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let store = try TodoStore(database: try BinderyDatabase.open(path: path))
            try store.add("kept", to: "home")
            try store.add("also kept", to: "home")
        }
        let reopened = try TodoStore(database: try BinderyDatabase.open(path: path))
        XCTAssertEqual(try reopened.items(of: "home").value.map(\.title), ["kept", "also kept"])
    }
}
