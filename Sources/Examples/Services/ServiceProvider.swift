import Bindery
import Foundation

/// The services the example ViewModels use, made once for the app and handed
/// to each ViewModel's factory (seed 000's `ServiceProvider`).
///
/// Shared by every session's factory: immutable once made, and each service
/// guards what it changes with a lock of its own, so sessions on any thread
/// may use one provider (hence `@unchecked Sendable`: its scheduler is an
/// RxSwift `SchedulerType`, which says nothing of threads).
public final class ServiceProvider: @unchecked Sendable {
    /// Where the services' simulated latency runs.
    let scheduler: SchedulerType
    /// Users and following.
    let userService: UserService
    /// The items of the table and list examples.
    let itemService: ItemService
    /// Sending messages.
    let messageService: MessageService
    /// Currency rates, read from `rates.json`.
    let currencyService: CurrencyService
    /// Albums and tracks, read from `albums.json`.
    let albumService: AlbumService
    /// The database the sending list uploads to.
    let databaseService: DatabaseService
    /// RxSwift's operators, looked up by name.
    let operatorSearchService: OperatorSearchService

    /// Services with `latency` on `scheduler` (a background scheduler by
    /// default), whose state is kept by `application` where it keeps its sessions.
    public init(
        scheduler: SchedulerType = ConcurrentDispatchQueueScheduler(qos: .userInitiated), latency: RxTimeInterval = .milliseconds(150),
        keptBy application: Application? = nil
    ) {
        self.scheduler = scheduler
        userService = UserService(
            scheduler: scheduler, latency: latency,
            users: application?.keptRelay("examples.users", value: UserService.initialUsers) ?? SessionRelay(value: UserService.initialUsers))
        itemService = ItemService()
        messageService = MessageService(scheduler: scheduler, latency: latency)
        currencyService = CurrencyService(scheduler: scheduler, latency: latency)
        albumService = AlbumService(scheduler: scheduler)
        databaseService = DatabaseService(scheduler: scheduler, latency: latency)
        operatorSearchService = OperatorSearchService(scheduler: scheduler, latency: latency)
    }
}

/// A file shipped with the examples.
enum ExampleData {
    static func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json") else {
            throw ExampleDataError.missing(name)
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

enum ExampleDataError: Error { case missing(String) }
