import Bindery
import Foundation

/// What the server sends: a status, headers, and either bytes or an event stream.
struct Response: Sendable {
    /// The body.
    enum Body {
        /// Bytes sent at once.
        case data(Data)
        /// Server-sent events, written as the stream has them until it ends.
        case stream(EventStream)
    }

    /// The HTTP status code.
    var status: Int
    /// Headers in order.
    var headers: [(String, String)]
    /// The body.
    var body: Body
    /// Whether it is an HTML page (its 304 too), which gets the page headers and the browser's cookie.
    var isPage = false

    /// A JSON body with `status`.
    static func json(_ data: Data, status: Int = 200, headers: [(String, String)] = []) -> Response {
        Response(status: status, headers: headers.isEmpty ? jsonHeaders : jsonHeaders + headers, body: .data(data))
    }

    /// Every JSON answer's headers: one array, not one made for each answer.
    private static let jsonHeaders = [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")]

    /// An empty body with `status`.
    static func empty(status: Int, headers: [(String, String)] = []) -> Response {
        Response(status: status, headers: headers, body: .data(Data()))
    }

    /// The event stream `stream`.
    static func eventStream(_ stream: EventStream) -> Response {
        Response(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream; charset=utf-8"),
                ("Cache-Control", "no-cache"),
                ("X-Accel-Buffering", "no"),
            ], body: .stream(stream))
    }

    /// Gives back what the response holds (a stream's subscription and admission) when it will never be sent.
    func discard() {
        if case .stream(let stream) = body { stream.close(.clientLeft) }
    }
}
