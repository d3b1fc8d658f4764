import Foundation

extension Application {
    /// Creates a session of `viewModel` (or joins the shared one); for tests and tools.
    package func createSession(_ viewModel: String, parameters: Data = Data()) async throws -> Session {
        try await withCheckedThrowingContinuation { continuation in
            createSession(viewModel, parameters: parameters) { continuation.resume(with: $0) }
        }
    }

    /// Every registered ViewModel with its inputs and outputs.
    package func catalog() async -> Catalog {
        await withCheckedContinuation { continuation in catalog { continuation.resume(returning: $0) } }
    }
}
