import Foundation

/// What an app's ViewModels need from outside them (a database, an API
/// client, a clock), found by type: registered once on the application,
/// handed to every factory through `ViewModelContext.services`.
///
/// ```swift
/// app.services.register(WeatherClient.self) { _ in WeatherClient(key: …) }   // made on first use
/// app.services.register(Store.self) { services in Store(try services.database()) } // from another
/// app.register("forecast") { context in ForecastViewModel(client: try context.services.get(WeatherClient.self)) }
/// ```
///
/// A service registered with a factory is made the first time it is asked for,
/// once, even when several sessions ask at the same time; if making it fails,
/// every factory that asks gets the error (a 500 naming it) and the next ask
/// tries again.
///
/// Thread safety: every method may be called from any thread.
public final class Services: @unchecked Sendable {
    private enum Entry {
        case made(Any)
        case factory(@Sendable (Services) throws -> Any)
    }

    /// Recursive: a service's factory may ask for another (the store for the database).
    private let lock = NSRecursiveLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    public init() {}

    /// Registers `service` as `Service`, replacing any earlier one.
    public func register<Service>(_ service: Service, as type: Service.Type = Service.self) {
        lock.withLock { entries[ObjectIdentifier(type)] = .made(service) }
    }

    /// Registers `make` to make the `Service` the first time one is asked for.
    /// It gets these services, to ask for the ones it needs: capturing them
    /// instead would make a cycle that keeps them alive forever.
    public func register<Service>(_ type: Service.Type, _ make: @escaping @Sendable (Services) throws -> Service) {
        lock.withLock { entries[ObjectIdentifier(type)] = .factory { try make($0) } }
    }

    /// The registered `Service`; throws a client-facing error if there is none
    /// or if making it failed.
    public func get<Service>(_ type: Service.Type = Service.self) throws -> Service {
        // Made under the lock: a service is made once, and making one is rare.
        try lock.withLock {
            switch entries[ObjectIdentifier(type)] {
            case .made(let service)?:
                return service as! Service
            case .factory(let make)?:
                do {
                    let service = try make(self)
                    entries[ObjectIdentifier(type)] = .made(service)
                    return service as! Service
                } catch {
                    throw BinderyError(.viewModelFailed, "the service \(type) could not be made", cause: "\(error)")
                }
            case nil:
                throw BinderyError(.viewModelFailed, "no service \(type) is registered (app.services.register)")
            }
        }
    }

    /// Whether a `Service` is registered.
    public func contains<Service>(_ type: Service.Type) -> Bool {
        lock.withLock { entries[ObjectIdentifier(type)] != nil }
    }
}
