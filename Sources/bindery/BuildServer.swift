import BinderyServer
import Examples
import Todo

/// The server the executable runs and the tests start: the examples in a
/// `BinderyApp`, plus whatever `register` adds (the benchmark's ticker).
func buildServer(_ configuration: ServerConfiguration, register: (Application) -> Void = { _ in }) throws -> Server {
    let app = BinderyApp(configuration: configuration)
    Examples.register(in: app.application)
    Todo.register(in: app.application)
    register(app.application)
    return app.makeServer()
}
