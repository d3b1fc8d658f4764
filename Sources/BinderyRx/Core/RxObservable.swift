/// `Observable` by a name no other module uses, as RxSwift has it: for files that also
/// import a module with an `Observable` of its own (Observation's macro, say).
public typealias RxObservable<Element> = Observable<Element>
