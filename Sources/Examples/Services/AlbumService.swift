import Bindery
import Foundation

/// An album of the home example.
struct Album: Codable, Equatable {
    let id: Int
    let name: String
    let artist: String
    let year: Int
}

/// A track of the home example.
struct Track: Codable, Equatable {
    let id: Int
    let name: String
    let album: String
}

/// How the album service behaves for one session, so the slow and failing paths can be seen.
struct AlbumServiceMode: Codable, Equatable {
    /// Milliseconds before the answer.
    var latencyMilliseconds = 300
    /// `"internet"` or `"server"` makes every request fail that way.
    var failure: String?

    init(latencyMilliseconds: Int = 300, failure: String? = nil) {
        self.latencyMilliseconds = latencyMilliseconds
        self.failure = failure
    }

    /// Every field may be left out.
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latencyMilliseconds = try container.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? 300
        failure = try container.decodeIfPresent(String.self, forKey: .failure)
        guard (0...10_000).contains(latencyMilliseconds) else {
            throw DecodingError.dataCorruptedError(forKey: .latencyMilliseconds, in: container, debugDescription: "between 0 and 10000")
        }
        guard failure == nil || ["internet", "server"].contains(failure!) else {
            throw DecodingError.dataCorruptedError(forKey: .failure, in: container, debugDescription: "\"internet\", \"server\" or absent")
        }
    }
}

/// Albums and tracks read from `albums.json` (the article's `APIManager`).
final class AlbumService {
    enum Failure: Error, Equatable {
        case internet(String)
        case server(String)
    }

    private struct Library: Decodable {
        let albums: [Album]
        let tracks: [Track]
    }

    private let scheduler: SchedulerType

    init(scheduler: SchedulerType) { self.scheduler = scheduler }

    func requestData(_ mode: AlbumServiceMode) -> Observable<(albums: [Album], tracks: [Track])> {
        delayed(.milliseconds(mode.latencyMilliseconds), on: scheduler) {
            switch mode.failure {
            case "internet"?: throw Failure.internet("The Internet connection appears to be offline.")
            case "server"?: throw Failure.server("The server is under maintenance; try again later.")
            default:
                let library = try ExampleData.load("albums", as: Library.self)
                return (library.albums, library.tracks)
            }
        }
    }
}
