import BinderyRx
import XCTest

/// The ways RxSwift fills a `DisposeBag`, all disposed with it.
final class DisposeBagTests: XCTestCase {
    private final class Counter {
        var disposed = 0
        func make() -> Disposable { Disposables.create { self.disposed += 1 } }
    }

    func testVariadicArrayAndBuilderInserts() {
        let counter = Counter()
        var bag: DisposeBag? = DisposeBag(disposing: counter.make(), counter.make())
        bag?.insert(counter.make(), counter.make())
        bag?.insert([counter.make()])
        bag?.insert {
            counter.make()
            counter.make()
        }
        XCTAssertEqual(counter.disposed, 0)
        bag = nil
        XCTAssertEqual(counter.disposed, 7)

        var built: DisposeBag? = DisposeBag {
            counter.make()
            counter.make()
        }
        XCTAssertNotNil(built)
        built = nil
        XCTAssertEqual(counter.disposed, 9)
    }
}
