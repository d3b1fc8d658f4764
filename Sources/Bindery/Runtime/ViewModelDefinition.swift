/// A registered ViewModel: its name, whether it is shared, and how to make one.
struct ViewModelDefinition: Sendable {
    let name: String
    let isShared: Bool
    /// One sentence for the catalog.
    let summary: String?
    /// Properties that are outputs whatever their type suggests, with their kind.
    let declaredOutputs: [String: OutputKind]
    let make: @Sendable (ViewModelContext) throws -> Any
}
