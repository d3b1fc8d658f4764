import Bindery
import BinderyServer
import Examples

/// The application the executable runs and the tests start: the examples on a
/// server, plus whatever `register` adds (the benchmark's ticker).
func buildServer(_ configuration: ServerConfiguration, register: (Application) -> Void = { _ in }) throws -> Server {
    let application = Application(configuration: configuration.runtime)
    Examples.register(in: application)
    register(application)
    return Server(application: application, configuration: configuration)
}
