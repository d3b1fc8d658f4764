/// The items shown by the table and list examples.
struct ItemService {
    func items() -> [Item] {
        [
            Item(id: 1, title: "Observables", content: "A sequence of events over time: next* (error | completed)?"),
            Item(id: 2, title: "Subjects", content: "Both an observer and an observable; relays never terminate."),
            Item(id: 3, title: "Drivers", content: "Shared, replaying, never failing: state for the View."),
            Item(id: 4, title: "Signals", content: "Shared, not replaying, never failing: events for the View."),
            Item(id: 5, title: "Schedulers", content: "Where and when work runs; TestScheduler runs it in virtual time."),
        ]
    }
}

/// One row of the table and list examples.
struct Item: Codable, Equatable {
    let id: Int
    let title: String
    let content: String
}
