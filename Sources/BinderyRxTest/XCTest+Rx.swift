import BinderyRx
import XCTest

// RxTest's assertions for lists of the primitive sequences' events (a `SingleEvent` is a
// `Result` whose failure is any error, so not Equatable): errors compare by type and
// description, as `Event`'s do.

/// Asserts two lists of single events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line) { l, r in
        switch (l, r) {
        case let (.success(l), .success(r)): return l == r
        case let (.failure(l), .failure(r)): return sameError(l, r)
        default: return false
        }
    }
}

/// Asserts two lists of maybe events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>], file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line, ==)
}

/// Asserts two lists of completable events are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line, ==)
}

/// Asserts that `stream` holds only `.next` events, and that their elements are `elements`.
public func XCTAssertRecordedElements<Element: Equatable>(_ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath, line: UInt = #line) {
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        return XCTFail("A non-next stop event has been emitted: \(stop)", file: file, line: line)
    }
    XCTAssertEqual(stream.compactMap { $0.value.element }, elements, file: file, line: line)
}

private func sameError(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    type(of: lhs) == type(of: rhs) && "\(lhs)" == "\(rhs)"
}

private func assertEqual<T>(_ lhs: [T], _ rhs: [T], file: StaticString, line: UInt, _ equal: (T, T) -> Bool) {
    let same = lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { equal($0, $1) }
    XCTAssertTrue(same, "(\(lhs)) is not equal to (\(rhs))", file: file, line: line)
}
