// Arity 2 to 8 of `zip` for `Driver` and `Signal`. Written by script/generate-arity: do not edit.

extension SharedSequence {
    /// Pairs up the elements of 2 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 2 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2) -> SharedSequence where Element == (O1.Element, O2.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable()) { ($0, $1) })
    }

    /// Pairs up the elements of 3 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 3 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable()) { ($0, $1, $2) })
    }

    /// Pairs up the elements of 4 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 4 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()) { ($0, $1, $2, $3) })
    }

    /// Pairs up the elements of 5 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 5 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable()) { ($0, $1, $2, $3, $4) })
    }

    /// Pairs up the elements of 6 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 6 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable()) { ($0, $1, $2, $3, $4, $5) })
    }

    /// Pairs up the elements of 7 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 7 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable()) { ($0, $1, $2, $3, $4, $5, $6) })
    }

    /// Pairs up the elements of 8 sources, by index, with `resultSelector`.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element) -> SharedSequence where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(), resultSelector: resultSelector))
    }

    /// Pairs up the elements of 8 sources, by index, into tuples.
    public static func zip<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType, O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8) -> SharedSequence where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element), O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy, O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy, O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy, O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(), source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable()) { ($0, $1, $2, $3, $4, $5, $6, $7) })
    }

}
