/// A registered ViewModel: its name, whether it is shared, and how to make one.
struct ViewModelDefinition {
    let name: String
    let isShared: Bool
    let make: (ViewModelContext) throws -> Any
}
