import Foundation

extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first, and disposes the other.
    public func amb<Right: ObservableType>(_ right: Right) -> Observable<Element> where Right.Element == Element {
        let left = asObservable()
        let right = right.asObservable()
        return Observable { observer in
            let lock = NSLock()
            var winner: Int?
            let subscriptions = [SingleAssignmentDisposable(), SingleAssignmentDisposable()]
            func on(_ event: Event<Element>, from side: Int) {
                let (wins, loser) = lock.withLock { () -> (Bool, Disposable?) in
                    if let winner { return (winner == side, nil) }
                    winner = side
                    return (true, subscriptions[1 - side])
                }
                // The loser goes before the winner's first event, and under no lock.
                loser?.dispose()
                if wins { observer.on(event) }
            }
            subscriptions[0].setDisposable(left.subscribe { on($0, from: 0) })
            subscriptions[1].setDisposable(right.subscribe { on($0, from: 1) })
            return Disposables.create(subscriptions)
        }
    }

    /// Mirrors whichever of `sequence`'s sources sends an event first, and disposes the others.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        sequence.reduce(Observable<Element>.never()) { $0.amb($1) }
    }
}
