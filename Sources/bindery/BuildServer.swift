import Bindery
import BinderyServer
import Examples

/// The application the executable runs and the tests start: the examples on a server.
func buildServer(_ configuration: ServerConfiguration) throws -> Server {
    let application = Application(configuration: configuration.runtime)
    Examples.register(in: application)
    return Server(application: application, configuration: configuration)
}
