// Arity 2 to 8 of `zip`, as RxSwift's Zip+arity.swift. Written by script/generate-arity: do not edit.

extension ObservableType {
    /// Pairs up the elements of 2 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType>(_ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element) }
    }

    /// Pairs up the elements of 3 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }, source3.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element, v[2] as! O3.Element) }
    }

    /// Pairs up the elements of 4 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }, source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element, v[2] as! O3.Element, v[3] as! O4.Element) }
    }

    /// Pairs up the elements of 5 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }, source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any }, source5.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element, v[2] as! O3.Element, v[3] as! O4.Element, v[4] as! O5.Element) }
    }

    /// Pairs up the elements of 6 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }, source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any }, source5.asObservable().map { $0 as Any }, source6.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element, v[2] as! O3.Element, v[3] as! O4.Element, v[4] as! O5.Element, v[5] as! O6.Element) }
    }

    /// Pairs up the elements of 7 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }, source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any }, source5.asObservable().map { $0 as Any }, source6.asObservable().map { $0 as Any }, source7.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element, v[2] as! O3.Element, v[3] as! O4.Element, v[4] as! O5.Element, v[5] as! O6.Element, v[6] as! O7.Element) }
    }

    /// Pairs up the elements of 8 sources, by index, with `resultSelector`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8, resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element) -> Observable<Element> {
        zipEngine([source1.asObservable().map { $0 as Any }, source2.asObservable().map { $0 as Any }, source3.asObservable().map { $0 as Any }, source4.asObservable().map { $0 as Any }, source5.asObservable().map { $0 as Any }, source6.asObservable().map { $0 as Any }, source7.asObservable().map { $0 as Any }, source8.asObservable().map { $0 as Any }]) { v in try resultSelector(v[0] as! O1.Element, v[1] as! O2.Element, v[2] as! O3.Element, v[3] as! O4.Element, v[4] as! O5.Element, v[5] as! O6.Element, v[6] as! O7.Element, v[7] as! O8.Element) }
    }

}

extension ObservableType {
    /// Pairs up the elements of 2 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType>(_ source1: O1, _ source2: O2) -> Observable<(O1.Element, O2.Element)> where Element == (O1.Element, O2.Element) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Pairs up the elements of 3 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3) -> Observable<(O1.Element, O2.Element, O3.Element)> where Element == (O1.Element, O2.Element, O3.Element) {
        zip(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Pairs up the elements of 4 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element) {
        zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
    }

    /// Pairs up the elements of 5 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) {
        zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
    }

    /// Pairs up the elements of 6 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) {
        zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
    }

    /// Pairs up the elements of 7 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) {
        zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
    }

    /// Pairs up the elements of 8 sources, by index, into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType, O8: ObservableType>(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) {
        zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
    }

}
