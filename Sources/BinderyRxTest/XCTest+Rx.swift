import BinderyRx
import XCTest

// RxTest's assertions for lists of the primitive sequences' events, which are not Equatable
// (a `SingleEvent` is a `Result` whose failure is any error): errors compare by type and
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
    assertEqual(lhs, rhs, file: file, line: line) { l, r in
        switch (l, r) {
        case let (.success(l), .success(r)): return l == r
        case let (.error(l), .error(r)): return sameError(l, r)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

/// Asserts two lists of completable events are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line) { l, r in
        switch (l, r) {
        case let (.error(l), .error(r)): return sameError(l, r)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

private func sameError(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    type(of: lhs) == type(of: rhs) && "\(lhs)" == "\(rhs)"
}

private func assertEqual<T>(_ lhs: [T], _ rhs: [T], file: StaticString, line: UInt, _ equal: (T, T) -> Bool) {
    let same = lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { equal($0, $1) }
    XCTAssertTrue(same, "(\(lhs)) is not equal to (\(rhs))", file: file, line: line)
}
