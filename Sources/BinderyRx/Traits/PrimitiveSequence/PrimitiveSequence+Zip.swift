// The zip of collections of singles and of completables, as RxSwift's Single.swift and
// Completable.swift; arity 2 to 8 is in PrimitiveSequence+Zip+arity.swift (script/generate-arity).

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips the singles of the collection with `resultSelector`; an empty collection succeeds with `resultSelector([])`.
    public static func zip<Collection: Swift.Collection, Result>(_ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>.deferred { PrimitiveSequence<Trait, Result>(raw: .just(try resultSelector([]))) }
        }
        return PrimitiveSequence<Trait, Result>(raw: Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Zips the singles of the collection into an array; an empty collection succeeds with `[]`.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty { return PrimitiveSequence<Trait, [Element]>(raw: .just([])) }
        return PrimitiveSequence<Trait, [Element]>(raw: Observable.zip(collection.map { $0.asObservable() }))
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Completes when every completable has (for completables, zip is merge).
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Completes when every completable has.
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Completes when every completable has.
    public static func zip(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }
}
