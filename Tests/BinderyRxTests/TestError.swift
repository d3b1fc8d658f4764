/// The error tests make sources fail with.
enum TestError: Swift.Error, Equatable {
    case boom
    case other
}
