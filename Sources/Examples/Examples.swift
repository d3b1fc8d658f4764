import Bindery

/// The seed articles' ViewModels, registered under their URL names.
public enum Examples {
    /// Registers every example ViewModel with `application`, sharing `services`.
    public static func register(in application: Application, services: ServiceProvider = ServiceProvider()) {
        application.register("simple") { _ in SimpleViewModel() }
        application.register("table") { _ in SimpleTableViewModel(itemService: services.itemService) }
        application.register("profile") { context in
            ProfileViewModel(userID: try context.parameters(as: ProfileParameters.self).userID ?? 1, services: services)
        }
        application.register("list") { _ in ListViewModel(services: services) }
        application.register("detail") { context in
            let id = try context.parameters(as: DetailParameters.self).id ?? 1
            guard let item = services.itemService.items().first(where: { $0.id == id }) else {
                throw BinderyError(.invalidPayload, "creation parameters: there is no item \(id)")
            }
            return DetailViewModel(item: item)
        }
        application.register("messages") { _ in MessageListViewModel(services: services) }
        application.register("currency") { _ in CurrencyViewModel(service: services.currencyService) }
        application.register("sending") { _ in SendingListViewModel(database: services.databaseService) }
        application.register("home", outputs: ["albums": .driver, "tracks": .driver, "loading": .driver, "error": .signal]) { context in
            HomeViewModel(service: services.albumService, mode: try context.parameters(as: AlbumServiceMode.self))
        }
    }
}

struct ProfileParameters: Decodable { let userID: Int? }
struct DetailParameters: Decodable { let id: Int? }
