// Arity 2 to 8 of `zip` for `Single` and `Maybe`, as RxSwift's PrimitiveSequence+Zip+arity.swift. Written by script/generate-arity: do not edit.

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 2 singles with `resultSelector`.
    public static func zip<E1, E2>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, resultSelector: @escaping (E1, E2) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 2 singles into a tuple.
    public static func zip<E1, E2>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>) -> PrimitiveSequence<Trait, (E1, E2)> {
        PrimitiveSequence<Trait, (E1, E2)>(raw: Observable.zip(source1.asObservable(), source2.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 3 singles with `resultSelector`.
    public static func zip<E1, E2, E3>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, resultSelector: @escaping (E1, E2, E3) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 3 singles into a tuple.
    public static func zip<E1, E2, E3>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>) -> PrimitiveSequence<Trait, (E1, E2, E3)> {
        PrimitiveSequence<Trait, (E1, E2, E3)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 4 singles with `resultSelector`.
    public static func zip<E1, E2, E3, E4>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, resultSelector: @escaping (E1, E2, E3, E4) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 4 singles into a tuple.
    public static func zip<E1, E2, E3, E4>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 5 singles with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 5 singles into a tuple.
    public static func zip<E1, E2, E3, E4, E5>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 6 singles with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 6 singles into a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 7 singles with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>, resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 7 singles into a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Zips 8 singles with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>, _ source8: PrimitiveSequence<Trait, E8>, resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == SingleTrait {
    /// Zips 8 singles into a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>, _ source8: PrimitiveSequence<Trait, E8>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7, E8)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7, E8)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 2 maybes with `resultSelector`.
    public static func zip<E1, E2>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, resultSelector: @escaping (E1, E2) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 2 maybes into a tuple.
    public static func zip<E1, E2>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>) -> PrimitiveSequence<Trait, (E1, E2)> {
        PrimitiveSequence<Trait, (E1, E2)>(raw: Observable.zip(source1.asObservable(), source2.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 3 maybes with `resultSelector`.
    public static func zip<E1, E2, E3>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, resultSelector: @escaping (E1, E2, E3) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 3 maybes into a tuple.
    public static func zip<E1, E2, E3>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>) -> PrimitiveSequence<Trait, (E1, E2, E3)> {
        PrimitiveSequence<Trait, (E1, E2, E3)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 4 maybes with `resultSelector`.
    public static func zip<E1, E2, E3, E4>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, resultSelector: @escaping (E1, E2, E3, E4) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 4 maybes into a tuple.
    public static func zip<E1, E2, E3, E4>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 5 maybes with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 5 maybes into a tuple.
    public static func zip<E1, E2, E3, E4, E5>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 6 maybes with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 6 maybes into a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 7 maybes with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>, resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 7 maybes into a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Zips 8 maybes with `resultSelector`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>, _ source8: PrimitiveSequence<Trait, E8>, resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(), resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Element == Any, Trait == MaybeTrait {
    /// Zips 8 maybes into a tuple.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(_ source1: PrimitiveSequence<Trait, E1>, _ source2: PrimitiveSequence<Trait, E2>, _ source3: PrimitiveSequence<Trait, E3>, _ source4: PrimitiveSequence<Trait, E4>, _ source5: PrimitiveSequence<Trait, E5>, _ source6: PrimitiveSequence<Trait, E6>, _ source7: PrimitiveSequence<Trait, E7>, _ source8: PrimitiveSequence<Trait, E8>) -> PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7, E8)> {
        PrimitiveSequence<Trait, (E1, E2, E3, E4, E5, E6, E7, E8)>(raw: Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable()))
    }
}
