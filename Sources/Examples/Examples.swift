import Bindery
import BinderyAccounts
import BinderyReactorKit

/// The seed articles' ViewModels, registered under their URL names.
public enum Examples {
    /// Registers every example ViewModel with `application`, sharing
    /// `services` (by default services whose state the application keeps).
    public static func register(in application: Application, services: ServiceProvider? = nil) {
        let services = services ?? ServiceProvider(keptBy: application)
        application.register("simple", summary: "Color cycling from the single-method binding article: a tap moves to the next color.") { _ in SimpleViewModel()
        }
        application.register("table", summary: "The single-method binding article's table: fetch items, select one to see its content.") { _ in
            SimpleTableViewModel(itemService: services.itemService)
        }
        application.register("profile", summary: "RxMVVM: a profile with a follow button through a UserService that can refuse.") { context in
            ProfileViewModel(userID: try context.parameters(as: ProfileParameters.self).userID ?? 1, services: services)
        }
        application.register("list", summary: "RxMVVM: selecting an item presents a DetailViewModel, which becomes its own session.") { _ in
            ListViewModel(services: services)
        }
        application.register("detail", summary: "The detail screen the list presents (create one with {\"id\": 1…5}).") { context in
            let id = try context.parameters(as: DetailParameters.self).id ?? 1
            guard let item = services.itemService.items().first(where: { $0.id == id }) else {
                throw BinderyError(.invalidPayload, "creation parameters: there is no item \(id)")
            }
            return DetailViewModel(item: item)
        }
        application.register("messages", summary: "RxMVVM: a message composer whose send button shows its loading state.") { _ in
            MessageListViewModel(services: services)
        }
        application.register("currency", summary: "Input/Output structs: reload rates from a JSON file, select a currency for its detail.") { _ in
            CurrencyViewModel(service: services.currencyService)
        }
        application.register("sending", summary: "ViewModel done right: texts uploaded to a database through an Action.") { _ in
            SendingListViewModel(database: services.databaseService)
        }
        application.register(
            "search", summary: "Search as you type, as iOS code writes it: debounced and observed on MainScheduler.instance."
        ) { _ in OperatorSearchViewModel(service: services.operatorSearchService) }
        application.register("board", shared: true, summary: "One board for everyone: post a note, every page sees it (one instance across a cluster).") {
            _ in BoardViewModel()
        }
        application.register(
            "tasks", summary: "The todo list as a ReactorKit reactor: its actions are inputs, its state's fields outputs, its state kept.",
            actions: [
                .send(TaskListReactor.Action.add), .send(TaskListReactor.Action.toggle), .send(TaskListReactor.Action.delete),
                .send(.clearDone),
            ]
        ) { _ in TaskListReactor() }
        application.register(
            "avatar", summary: "A picture sent from the page as a file (an upload): its bytes checked, kept as the session's."
        ) { _ in AvatarViewModel() }
        application.register("signin", summary: "Who this browser is: register, sign in with a password, sign out here or everywhere.") {
            context in
            SignInViewModel(
                accounts: context.services.contains(Accounts.self) ? try context.services.get(Accounts.self) : nil, identity: context.identity,
                next: try context.parameters(as: SignInViewModel.Parameters.self).next, client: context.client)
        }
        application.register("me", summary: "Only for a signed-in identity: who you are, and a new password (401 without one).") { context in
            MeViewModel(
                identity: try context.requireIdentity(), accounts: try context.services.get(Accounts.self),
                scripts: context.services.contains((any ScriptTokens).self) ? try context.services.get((any ScriptTokens).self) : nil,
                client: context.client)
        }
        application.register("bindings", summary: "Every binding kind on one page: a JSON document whose fields each kind of element shows.") { _ in
            BindingsViewModel()
        }
        application.register(
            "home", summary: "Practical MVVM: albums and tracks with loading and a typed error; can be slow or fail.",
            outputs: ["albums": .driver, "tracks": .driver, "loading": .driver, "error": .signal]
        ) { context in
            HomeViewModel(service: services.albumService, mode: try context.parameters(as: AlbumServiceMode.self))
        }
    }
}

struct ProfileParameters: Decodable { let userID: Int? }
struct DetailParameters: Decodable { let id: Int? }
