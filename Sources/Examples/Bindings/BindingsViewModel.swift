import Bindery
import Foundation

/// Every binding kind on one page (`bindings.html`): a JSON document whose fields
/// the page's elements bind, one element per kind. Edit the document on the page
/// (`source`, JSON text) or send it whole (`document`, a JSON object) and watch
/// each kind follow. The first paint is tested against it: for any document, the
/// page the server renders equals the page the client renders.
final class BindingsViewModel: ViewModelBinding {
    struct Input: Decodable {
        /// The whole document, a JSON object.
        let document: Observable<JSONValue>
        /// The document as JSON text, from the page's editor.
        let source: Observable<String>
    }

    struct Output {
        let text: Driver<JSONValue>
        let flag: Driver<JSONValue>
        let record: Driver<JSONValue>
        let items: Driver<JSONValue>
        /// The document as JSON text, for the editor.
        let source: Driver<String>
        /// Why the editor's last text was not taken ("" when it was).
        let problem: Driver<String>
        let disposable: Disposable
    }

    /// Made each time, not kept in a global: a static `JSONValue` (an indirect enum) reads as
    /// leaked to LeakSanitizer, which checks the server's exit under AddressSanitizer.
    static var initialDocument: JSONValue {
        [
            "text": "Hello, <b>world</b>",
            "flag": true,
            "record": [
                "name": "Ada", "title": "\"Notes\" </template>", "choice": "b", "count": 3, "tags": ["x", "y"], "color": "teal",
                "errors": ["email": "an address has an @", "size": ["pick one", "S or M"]],
                "html":
                    #"<p>Some <em>rich</em> text, a <a href="https://example.org/">link</a> and <a href="javascript:alert(1)">one that goes</a><script>alert(2)</script></p>"#,
            ],
            "items": [["id": 1, "title": "first", "done": false, "tags": ["new", "<b>"]], ["id": 2, "title": "second", "done": true]],
        ]
    }

    func bind(_ input: Input) -> Output {
        let document = SessionRelay<JSONValue>(value: Self.initialDocument)
        let problem = BehaviorRelay<String>(value: "")
        func field(_ name: String) -> Driver<JSONValue> {
            document.map { document -> JSONValue in
                guard case .object(let fields) = document else { return .null }
                return fields[name] ?? .null
            }.asDriver(onErrorJustReturn: .null)
        }
        let typed = input.source.map { text -> JSONValue? in
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), case .object = value else { return nil }
            return value
        }.share()
        let disposable = Disposables.create(
            input.document.filter { if case .object = $0 { return true } else { return false } }.bind(to: document),
            typed.compactMap { $0 }.bind(to: document),
            typed.map { $0 == nil ? "not a JSON object" : "" }.bind(to: problem))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let source = document.map { document in
            (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
        return Output(
            text: field("text"), flag: field("flag"), record: field("record"), items: field("items"),
            source: source.asDriver(onErrorJustReturn: "{}"), problem: problem.asDriver(), disposable: disposable)
    }
}
