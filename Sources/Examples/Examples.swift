import Bindery

/// The seed articles' ViewModels, registered under their URL names.
public enum Examples {
    /// Registers every example ViewModel with `application`.
    public static func register(in application: Application) {
        application.register("simple") { _ in SimpleViewModel() }
    }
}
