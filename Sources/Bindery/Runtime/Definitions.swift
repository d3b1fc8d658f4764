import Foundation

/// The registered ViewModels (an `Application`'s registry): each definition by
/// name, the order they came in, the name of each type (to name a child a
/// ViewModel navigates to), and the catalog probed from them.
///
/// Thread safety: any thread; one lock of its own, held only to read or
/// change the table, never while calling out.
final class Definitions: Sendable {
    private struct Table {
        var byName: [String: ViewModelDefinition] = [:]
        var order: [String] = []
        var namesByType: [ObjectIdentifier: String] = [:]
        var catalog: Catalog?
        /// Bumped by every registration, so a probe that raced one is not cached.
        var generation = 0
    }

    private let table = Locked(Table())

    /// Adds `definition`, made as `type`: the first name a type is registered under names it.
    func add(_ definition: ViewModelDefinition, type: Any.Type) {
        table.withLock { table in
            precondition(table.byName[definition.name] == nil, "ViewModel '\(definition.name)' is registered twice")
            table.byName[definition.name] = definition
            table.order.append(definition.name)
            table.namesByType[ObjectIdentifier(type)] = table.namesByType[ObjectIdentifier(type)] ?? definition.name
            table.generation += 1
            table.catalog = nil
        }
    }

    /// The definition of `name`; throws `unknownViewModel` if none is registered.
    func definition(_ name: String) throws(BinderyError) -> ViewModelDefinition {
        guard let definition = table.withLock({ $0.byName[name] }) else { throw BinderyError(.unknownViewModel, "no ViewModel named '\(name)'") }
        return definition
    }

    /// The definition of `name`, nil if none is registered.
    subscript(name: String) -> ViewModelDefinition? { table.withLock { $0.byName[name] } }

    /// The registered name of ViewModel type `type`.
    func name(of type: Any.Type) -> String? { table.withLock { $0.namesByType[ObjectIdentifier(type)] } }

    /// The names, in the order they were registered.
    var names: [String] { table.withLock(\.order) }

    /// The catalog as it stands.
    enum CatalogState {
        /// Probed since the last registration.
        case known(Catalog)
        /// To probe from `definitions`, in order; `generation` goes to `keep` with the catalog.
        case toProbe(_ definitions: [ViewModelDefinition], generation: Int)
    }

    /// The catalog, if one was probed since the last registration; else what to probe it from.
    var catalog: CatalogState {
        table.withLock { table in
            if let catalog = table.catalog { return .known(catalog) }
            return .toProbe(table.order.compactMap { table.byName[$0] }, generation: table.generation)
        }
    }

    /// Keeps `catalog`, probed from the definitions of `generation`, unless a registration came since.
    func keep(_ catalog: Catalog, of generation: Int) {
        table.withLock { if $0.generation == generation { $0.catalog = catalog } }
    }
}
