/// A sequence that is also an observer and can be converted to a `ControlProperty`.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The property as a `ControlProperty`.
    func asControlProperty() -> ControlProperty<Element>
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as the empty string, as RxCocoa's text properties are bound.
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        return ControlProperty(subscribedValues: original.asObservable().map { $0 ?? "" }, valueSink: original.mapObserver { $0 as String? })
    }
}
