/// A ViewModel with one binding method: inputs in, outputs out.
///
/// `Input` is a struct of observables (`Observable<T>`, `Signal<T>`, `Driver<T>`);
/// declaring it `Decodable` is the only thing Bindery asks, so the runtime can
/// build it with one input port per property, named after the property.
/// `Output` is a struct of `Driver`, `Signal` or `Observable` properties, each an
/// output named after the property; `Disposable` properties live as long as the session.
public protocol ViewModelBinding {
    /// The inputs, one observable per property.
    associatedtype Input: Decodable
    /// The outputs, one shared sequence per property.
    associatedtype Output
    /// Wires inputs to outputs; called once per session.
    func bind(_ input: Input) -> Output
}
