// Arity 2 to 8 of `combineLatest` for `Driver` and `Signal`. Written by script/generate-arity: do not edit.

extension SharedSequence {
    /// Combines the latest elements of 2 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 2 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2) -> SharedSequence where Element == (O1.Element, O2.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable()) { ($0, $1) })
    }

    /// Combines the latest elements of 3 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 3 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable()) { ($0, $1, $2) })
    }

    /// Combines the latest elements of 4 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 4 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()) { ($0, $1, $2, $3) })
    }

    /// Combines the latest elements of 5 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 5 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()) { ($0, $1, $2, $3, $4) })
    }

    /// Combines the latest elements of 6 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 6 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()) { ($0, $1, $2, $3, $4, $5) })
    }

    /// Combines the latest elements of 7 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 7 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()) { ($0, $1, $2, $3, $4, $5, $6) })
    }

    /// Combines the latest elements of 8 sources with `resultSelector`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(), resultSelector: resultSelector))
    }

    /// Combines the latest elements of 8 sources into a tuple.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable()) { ($0, $1, $2, $3, $4, $5, $6, $7) })
    }

}
