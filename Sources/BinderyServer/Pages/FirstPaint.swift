import Bindery
import Foundation

/// A page's first paint: the page arrives with its values, as LiveView's first
/// render does. For each bound root of an HTML page (`[data-bindery]`, outside
/// templates) the server finds the root's session, as the browser client would:
/// the one its query parameter names (`?session=`, `?session-<key>=`), or else a
/// new one, made with the root's parameters and sent its `data-bindery-start`
/// inputs (for at most `startWait`). It then writes the session's values into the
/// root (`PageRender`) and marks the root with the session and its snapshot, which
/// the client adopts: no second create, and its stream resumes after the
/// snapshot's event.
///
/// A session made for a page counts against the client's limits as one the client
/// made, and one no browser adopts idles out as unused. A root whose session cannot
/// be had (refused, gone, too many) goes as written, and the client does as it
/// always did.
struct FirstPaint: Sendable {
    let api: APIRouter
    let render: PageRender
    /// How long a new session's start inputs may take before the page goes without what they bring.
    let startWait: Duration
    /// Where `bindery.js` imports its modules from (`/_bindery/v1/<digest>/`), preloaded
    /// from there; nil where the app serves the client's files itself (its own copy's imports).
    var clientModules: String? = nil

    /// Whether `html` may have a bound root.
    static func binds(_ html: Data) -> Bool {
        html.range(of: Data("data-bindery".utf8)) != nil
    }

    /// `html` with its roots rendered, for `request` from the browser whose token is `browser`.
    func render(_ html: Data, for request: Request, browser: String, reply: @escaping @Sendable (Data) -> Void) {
        let page = Page(html)
        page.clientModules = clientModules
        guard !page.roots.isEmpty else { return reply(html) }
        // Who the page is for: the router asked (the app's authentication, the browser's sign-in).
        renderRoots(page, for: request, browser: browser, identity: request.identity, reply: reply)
    }

    private func renderRoots(_ page: Page, for request: Request, browser: String, identity: Identity?, reply: @escaping @Sendable (Data) -> Void) {
        let plans = page.roots.map { Plan($0, query: request.query) }
        let waiting = Locked(plans.count)
        let rendered = Locked([Rendered?](repeating: nil, count: plans.count))
        for (index, plan) in plans.enumerated() {
            session(for: plan, request: request, browser: browser, identity: identity) { result in
                rendered.withLock { $0[index] = result }
                guard
                    waiting.withLock({ count -> Int in
                        count -= 1
                        return count
                    }) == 0
                else { return }
                // Off the session's executor: the render is the page's work, not the session's.
                DispatchQueue.global().async { [render] in reply(page.rendered(rendered.withLock { $0 }, by: render)) }
            }
        }
    }

    /// The session of one root, with its snapshot, or nil if the root goes as written.
    private func session(
        for plan: Plan?, request: Request, browser: String, identity: Identity?, completion: @escaping @Sendable (Rendered?) -> Void
    ) {
        let application = api.application
        guard let plan else { return completion(nil) }
        if let id = plan.sessionID {
            let credentials = APIRouter.Credentials(browser: browser, identity: identity?.id)
            return APIRouter.withSession(application, plan.viewModel, id: id, credentials: credentials, { $0.snapshot($1) }) { found in
                completion((try? found.get()).map { Rendered(snapshot: $0, created: false, failure: nil) })
            }
        }
        // Behind a proxy that routes by the browser's cookie, a browser without one may
        // come back to another node: it makes its session itself, from there.
        if api.configuration.sessionIDFromProxy && request.browser == nil { return completion(nil) }
        let client = request.provenance.client
        guard api.creations.take(for: client) == nil else {
            api.telemetry.refused(.sessionRate, client: client, detail: "a page's first paint: this client creates sessions too fast")
            return completion(nil)
        }
        let owner = identity.map { SessionOwner.identity($0.id) } ?? .browser(browser)
        application.createSession(plan.viewModel, parameters: plan.parameters, client: client, owner: owner, identity: identity) { [startWait] made in
            guard case .success(let session) = made else { return completion(nil) }
            Self.start(session, inputs: plan.start, within: startWait) { failure in
                session.snapshot { snapshot in
                    completion((try? snapshot.get()).map { Rendered(snapshot: $0, created: true, failure: failure) })
                }
            }
        }
    }

    /// Sends `inputs` one after another, without payload; `done` runs once, after the
    /// last is answered or when `within` has passed, with the first refusal's message.
    private static func start(_ session: Session, inputs: [String], within: Duration, done: @escaping @Sendable (String?) -> Void) {
        guard !inputs.isEmpty else { return done(nil) }
        let finished = Locked(false)
        @Sendable func finish(_ failure: String?) {
            guard
                finished.withLock({ was in
                    defer { was = true }
                    return !was
                })
            else { return }
            done(failure)
        }
        @Sendable func send(_ index: Int) {
            guard index < inputs.count else { return finish(nil) }
            session.send(input: inputs[index], payload: Data(), countsAsUse: false) { answered in
                if case .failure(let error) = answered { return finish(error.message) }
                send(index + 1)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(within.nanoseconds))) { finish(nil) }
        send(0)
    }

    /// One root's session and snapshot.
    struct Rendered: Sendable {
        let snapshot: Snapshot
        /// Made for this page (its start inputs sent), rather than joined.
        let created: Bool
        /// A start input's refusal, shown where the root shows errors.
        let failure: String?
    }

    /// What one root asks for, read as the client reads it (`bindery.js`).
    struct Plan: Sendable {
        let viewModel: String
        /// The session its query parameter names.
        let sessionID: String?
        /// Its creation parameters, as JSON.
        let parameters: Data
        /// Its `data-bindery-start` inputs.
        let start: [String]

        init?(_ root: Page.Root, query: [String: String]) {
            guard let parameter = root.sessionParameter, Application.isValidName(root.viewModel) else { return nil }
            viewModel = root.viewModel
            // One that names no session the client recovers from itself, and says so: it goes as written.
            if let named = query[parameter], !SessionID.isValid(named) { return nil }
            sessionID = query[parameter]
            start = root.start
            guard let parameters = root.parameters(query: query) else { return nil }
            self.parameters = parameters
        }
    }
}

extension FirstPaint {
    /// A parsed page and its bound roots. Touched by one thread at a time: parsed
    /// where the request is routed, rendered once every root's session answered.
    final class Page: @unchecked Sendable {
        struct Root {
            let element: HTMLElement
            let viewModel: String
            /// The query parameter that keeps its session; nil when another root has it.
            let sessionParameter: String?

            var start: [String] {
                (element["data-bindery-start"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }

            /// `data-bindery-params`, with `data-bindery-query`'s values from `query` over them; nil if the params are not a JSON object.
            func parameters(query: [String: String]) -> Data? {
                var parameters: [String: JSONValue] = [:]
                if let given = element["data-bindery-params"] {
                    guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(given.utf8)) else { return nil }
                    parameters = object
                }
                let bindings = (element["data-bindery-query"] ?? "").split(whereSeparator: \.isWhitespace)
                for binding in bindings {
                    let typed = binding.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                    let names = typed[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = String(names[0])
                    guard let text = query[names.count > 1 ? String(names[1]) : name] else { continue }
                    let isNumber = typed.count > 1 && typed[1] == "number"
                    if isNumber, let number = Self.number(text) {
                        parameters[name] = .number(number)
                    } else {
                        parameters[name] = .string(text)
                    }
                }
                if element["data-bindery-params"] == nil && bindings.isEmpty { return Data() }
                return try? JSONEncoder.bindery.encode(JSONValue.object(parameters))
            }

            /// `Number(text)` where it reads as one and is not blank, as the client takes it.
            private static func number(_ text: String) -> Double? {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, let number = Double(trimmed), number.isFinite else { return nil }
                return number
            }
        }

        let nodes: [HTMLNode]
        let roots: [Root]
        /// `FirstPaint.clientModules`.
        var clientModules: String?

        init(_ html: Data) {
            nodes = HTMLTree.parse(String(decoding: html, as: UTF8.self))
            var elements: [HTMLElement] = []
            for case .element(let top) in nodes {
                top.walk(entering: { $0.name != "template" }) { if $0.has("data-bindery") && $0.name != "template" { elements.append($0) } }
            }
            // The client's rule (bindery.js, sessionParametersOf): session-<key> for a keyed
            // root, session for the first without a key, session-<vm> for any other.
            var taken: Set<String> = []
            var pageRoot = true
            roots = elements.map { element in
                let viewModel = element["data-bindery"] ?? ""
                var key = element["data-bindery-key"]
                if key == nil && !pageRoot { key = viewModel }
                if !element.has("data-bindery-key") { pageRoot = false }
                let parameter = key.map { "session-\($0)" } ?? "session"
                let (fresh, _) = taken.insert(parameter)
                return Root(element: element, viewModel: viewModel, sessionParameter: fresh ? parameter : nil)
            }
        }

        /// The page with each root that has a session rendered with its values and marked for the client.
        func rendered(_ sessions: [Rendered?], by render: PageRender) -> Data {
            for (root, session) in zip(roots, sessions) {
                guard let session else { continue }
                var outputs: [String: JSONValue] = [:]
                for output in session.snapshot.outputs {
                    outputs[output.name] = try? JSONDecoder().decode(JSONValue.self, from: output.json)
                }
                render.render(root.element, outputs: outputs)
                root.element.set("data-bindery-session", session.snapshot.sessionID)
                root.element.set("data-bindery-snapshot", String(decoding: session.snapshot.json, as: UTF8.self))
                root.element.set("data-bindery-rendered", session.created ? "created" : "joined")
                if let failure = session.failure {
                    root.element.walk { if $0.has("data-bindery-errors") { $0.children = [.text(HTMLText.escaped(failure))] } }
                }
            }
            preloadModules()
            return Data(HTMLTree.serialize(nodes).utf8)
        }

        /// Where the page loads the client (`<script type="module" src="/_bindery/v1/bindery.js">`),
        /// the client's modules are asked for with it: one round trip for all of them, not
        /// one per level of imports, before the page can adopt its sessions. And the client's
        /// stylesheet is named under this release's digest, cached for good: a return visit
        /// paints with no revalidation between the page and its paint (the page itself, made
        /// per request, always names the current release). The script keeps its URL: a page's
        /// own module imports `/_bindery/v1/bindery.js` as the same module.
        private func preloadModules() {
            let client = "/\(ClientFiles.prefix)/\(ClientFiles.version)/"
            let modules = clientModules ?? client
            var preloaded = false
            for case .element(let top) in nodes {
                top.walk(entering: { $0.name != "template" }) { element in
                    if element.name == "link", element["rel"] == "stylesheet", element["href"] == client + "style.css" {
                        element.set("href", modules + "style.css")
                    }
                }
                var parents: [(HTMLElement, Int)] = []
                func find(_ element: HTMLElement) {
                    for (index, child) in element.children.enumerated() {
                        guard case .element(let child) = child else { continue }
                        if child.name == "script", child["src"] == client + "bindery.js" { parents.append((element, index)) }
                        if child.name != "template" { find(child) }
                    }
                }
                find(top)
                guard !preloaded, let (parent, index) = parents.first else { continue }
                preloaded = true
                let links = ClientFiles.modules.map { name in
                    HTMLNode.element(HTMLElement(name: "link", attributes: [("rel", "modulepreload"), ("href", modules + name)]))
                }
                parent.children.insert(contentsOf: links, at: index + 1)
            }
        }
    }
}
