/// A resource that can be released; disposing twice does nothing.
public protocol Disposable {
    /// Releases the resource: for a subscription, stops delivery and frees upstream.
    func dispose()
}

/// A disposable that can say whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}
