import Foundation

extension Application {
    /// Creates a session of `viewModel` (or joins the shared one); for tests and tools.
    package func createSession(_ viewModel: String, parameters: Data = Data()) async throws -> Session {
        try await awaitResult { createSession(viewModel, parameters: parameters, completion: $0) }
    }

    /// Every registered ViewModel with its inputs and outputs.
    package func catalog() async -> Catalog {
        await awaitCallback { catalog($0) }
    }
}
