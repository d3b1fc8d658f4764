/// Both an observable and an observer: what is sent to it is delivered to its subscribers.
public protocol SubjectType: ObservableType {
    /// The observer side's element type.
    associatedtype Observer: ObserverType
    /// The observer side.
    func asObserver() -> Observer
}
