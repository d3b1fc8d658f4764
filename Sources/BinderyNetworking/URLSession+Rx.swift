import Bindery

#if canImport(FoundationNetworking)
    // On Linux `URLSession`, `URLRequest` and `HTTPURLResponse` live here; on Apple's platforms in Foundation.
    @_exported import FoundationNetworking
#endif

/// Why a request of `URLSession.rx` failed, as RxCocoa names it.
public enum RxCocoaURLError: Swift.Error, CustomDebugStringConvertible {
    /// No response and no error came back.
    case unknown
    /// The response is not an HTTP one.
    case nonHTTPResponse(response: URLResponse)
    /// The status is outside `200..<300`.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body is not what it was read as (JSON).
    case deserializationError(error: Swift.Error)

    /// What went wrong, for a person.
    public var debugDescription: String {
        switch self {
        case .unknown: "no response and no error came back"
        case .nonHTTPResponse(let response): "the response is not an HTTP response: \(response)"
        case .httpRequestFailed(let response, _): "the request failed with status \(response.statusCode)"
        case .deserializationError(let error): "the response could not be read: \(error)"
        }
    }
}

/// RxCocoa's `URLSession.rx`: each subscription makes its own request, which
/// disposing cancels. The session's delegate queue calls back: observe the
/// results on `MainScheduler.instance` to come back to the ViewModel's session.
extension Reactive where Base: URLSession {
    /// The response and its body.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        Observable.create { observer in
            if Reactive<URLSession>.shouldLogRequest(request) {
                print("\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "<no URL>")")
            }
            let task = base.dataTask(with: request) { data, response, error in
                guard let response, let data else { return observer.onError(error ?? RxCocoaURLError.unknown) }
                guard let http = response as? HTTPURLResponse else { return observer.onError(RxCocoaURLError.nonHTTPResponse(response: response)) }
                observer.onNext((http, data))
                observer.onCompleted()
            }
            task.resume()
            return Disposables.create { task.cancel() }
        }
    }

    /// The body of a response whose status is in `200..<300`; else `RxCocoaURLError.httpRequestFailed`.
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { response, data in
            guard (200..<300).contains(response.statusCode) else { throw RxCocoaURLError.httpRequestFailed(response: response, data: data) }
            return data
        }
    }

    /// The body of a successful response, read as JSON (`JSONSerialization`).
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// `json(request:)` of a `GET` of `url`.
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}

extension Reactive where Base == URLSession {
    /// Whether a request is printed as it goes out. RxCocoa's default prints
    /// every request in debug builds; a server's output is its log, so here
    /// nothing is printed unless the app says so.
    nonisolated(unsafe) public static var shouldLogRequest: (URLRequest) -> Bool = { _ in false }
}
