import BinderyRxTest
import BinderyTest

/// Steps the examples' tests share. One tick is a millisecond.
extension ViewModelTestStore {
    /// Moves to a service's answer `ticks` ms from now, asserting nothing arrives one tick before it.
    func letTheServiceAnswer(in ticks: TestTime, file: StaticString = #filePath, line: UInt = #line) {
        advance(by: ticks - 1)
        finish(file: file, line: line)
        advance(by: 1)
    }

    /// Lets a second pass and asserts that nothing more arrives.
    func assertNothingMoreArrives(file: StaticString = #filePath, line: UInt = #line) {
        advance(by: 1_000)
        finish(file: file, line: line)
    }
}
