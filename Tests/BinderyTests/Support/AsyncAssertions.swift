import XCTest

/// `XCTAssertThrowsError` for an expression that is awaited.
func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line, _ handler: (Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("did not throw" + (message.isEmpty ? "" : " - \(message)"), file: file, line: line)
    } catch {
        handler(error)
    }
}
