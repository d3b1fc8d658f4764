import Bindery
import Foundation

/// The OpenAPI 3.1 document of protocol v1, generated from the route table
/// (`APIRoute`: paths, methods, the statuses each answers) and the catalog
/// (each body's schema): `script/test` runs schemathesis against it, so the
/// document and the server cannot drift apart.
enum OpenAPI {
    static func document(for catalog: Catalog, uploads: [UploadRule] = [], development: Bool = false) -> Data {
        var paths: [String: JSONValue] = [:]
        let error: JSONValue = ["description": "JSON error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
        let snapshot: JSONValue = ["description": "Snapshot", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Snapshot"]]]]
        let events: JSONValue = [
            "description": "Server-sent events: the snapshot, then live events",
            "content": ["text/event-stream": ["schema": ["$ref": "#/components/schemas/Event"]]],
        ]
        let sid: JSONValue = [
            "name": "sid", "in": "path", "required": true,
            "schema": ["type": "string", "pattern": "^([A-Za-z0-9_-]{22}|[0-9a-f]{32})$"],
            "description": "A session id: 22 letters, digits, - or _, or 32 lowercase hex digits (400 otherwise)",
        ]
        /// The errors `route` answers to `method`: its own, and 400 and 404 everywhere.
        func errors(_ route: APIRoute, _ method: String) -> [String: JSONValue] {
            Dictionary(uniqueKeysWithValues: ([400, 404] + (route.errorStatuses[method] ?? [])).map { (String($0), error) })
        }
        /// `route`'s path for ViewModel `viewModel` (and port `port`), as OpenAPI writes it.
        func path(_ route: APIRoute, _ viewModel: String = "", _ port: String = "") -> String {
            route.template.replacingOccurrences(of: "<vm>", with: viewModel).replacingOccurrences(of: "<sid>", with: "{sid}")
                .replacingOccurrences(of: "<name>", with: port)
        }
        paths[path(.catalog)] = ["get": ["summary": "The catalog of ViewModels", "responses": ["200": ["description": "Catalog"]]]]
        paths[path(.openAPI)] = ["get": ["summary": "This document", "responses": ["200": ["description": "The OpenAPI document"]]]]
        paths[path(.streams)] = [
            "get": [
                "summary": "Several sessions' event streams on one connection; each event starts with a `session: <vm>/<sid>` line",
                "parameters": [
                    [
                        "name": "sessions", "in": "query", "required": true, "schema": ["type": "string", "pattern": .string(sessionsPattern)],
                        "description": "<vm>/<sid>[@<lastEventId>], separated by commas (at most 64)",
                    ]
                ],
                "responses": .object(["200": events].merging(errors(.streams, "GET")) { a, _ in a }),
            ]
        ]
        for entry in catalog.viewModels {
            // Each operation on a session, by id, so that a created session's id links to them.
            // A shared ViewModel's session is everyone's: it has no DELETE.
            var sessionOperations: [String] = ["snapshot-\(entry.name)", "events-\(entry.name)"] + (entry.shared ? [] : ["dispose-\(entry.name)"])
            sessionOperations += entry.inputs.map { "input-\(entry.name)-\($0.name)" }
            sessionOperations += entry.outputs.filter { $0.kind == .driver }.map { "output-\(entry.name)-\($0.name)" }
            let created: JSONValue = [
                "description": "Snapshot of the new session",
                "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Snapshot"]]],
                "links": .object(
                    Dictionary(
                        uniqueKeysWithValues: sessionOperations.map {
                            ($0, ["operationId": .string($0), "parameters": ["sid": "$response.body#/id"]])
                        })),
            ]
            paths[path(.create, entry.name)] = [
                "post": [
                    "operationId": .string("create-\(entry.name)"),
                    "summary": .string("Create a \(entry.name) session"),
                    "requestBody": ["required": false, "content": ["application/json": ["schema": ["type": ["object", "null"]]]]],
                    "responses": .object(["201": created].merging(errors(.create, "POST")) { a, _ in a }),
                ]
            ]
            var session: [String: JSONValue] = [
                "parameters": [sid],
                "get": [
                    "operationId": .string("snapshot-\(entry.name)"), "summary": "Snapshot (JSON) or event stream (Accept: text/event-stream)",
                    "responses": .object(["200": snapshot].merging(errors(.session, "GET")) { a, _ in a }),
                ],
            ]
            if !entry.shared {
                session["delete"] = [
                    "operationId": .string("dispose-\(entry.name)"), "summary": "Dispose the session",
                    "responses": .object(["204": ["description": "Disposed"]].merging(errors(.session, "DELETE")) { a, _ in a }),
                ]
            }
            paths[path(.session, entry.name)] = .object(session)
            paths[path(.events, entry.name)] = [
                "parameters": [sid],
                "get": [
                    "operationId": .string("events-\(entry.name)"),
                    "summary": "Event stream", "responses": .object(["200": events].merging(errors(.events, "GET")) { a, _ in a }),
                ],
            ]
            // A session's test: a development server's only (elsewhere the route is 404).
            if development {
                paths[path(.test, entry.name)] = [
                    "parameters": [sid],
                    "get": [
                        "operationId": .string("test-\(entry.name)"),
                        "summary": "The session as a Swift test (a server in development only; 404 otherwise)",
                        "responses": .object(
                            ["200": ["description": "A ViewModelTestStore test", "content": ["text/x-swift": ["schema": ["type": "string"]]]]]
                                .merging(errors(.test, "GET")) { a, _ in a }),
                    ],
                ]
            }
            for input in entry.inputs {
                let isVoid = input.schema["type"] == "null"
                paths[path(.input, entry.name, input.name)] = [
                    "parameters": [sid],
                    "post": [
                        "operationId": .string("input-\(entry.name)-\(input.name)"),
                        "summary": .string("Send \(input.name)" + (isVoid ? " (no body, or null)" : "")),
                        "parameters": [
                            [
                                "name": "Idempotency-Key", "in": "header", "required": false,
                                "schema": ["type": "string", "pattern": #"^([!#-\[\]-~]{1,128}|"[!#-\[\]-~]{1,128}")$"#],
                                "description": "The client's key for this input: sent again with it, the input is not applied again",
                            ]
                        ],
                        "requestBody": [
                            "required": .bool(!isVoid),
                            "content": Self.content(of: input.schema, rule: uploads.first { $0.viewModel == entry.name && $0.input == input.name }),
                        ],
                        "responses": .object(["200": snapshot].merging(errors(.input, "POST")) { a, _ in a }),
                    ],
                ]
            }
            for output in entry.outputs where output.kind == .driver {
                paths[path(.output, entry.name, output.name)] = [
                    "parameters": [sid],
                    "get": [
                        "operationId": .string("output-\(entry.name)-\(output.name)"),
                        "summary": .string("Current value of \(output.name)"),
                        "responses": .object(
                            [
                                "200": ["description": "Value", "content": ["application/json": ["schema": output.schema]]],
                                "204": ["description": "The output has no value yet"],
                            ].merging(errors(.output, "GET")) { a, _ in a }),
                    ],
                ]
            }
        }
        let document: JSONValue = [
            "openapi": "3.1.0",
            "info": ["title": "Bindery", "version": "1"],
            "paths": .object(paths),
            "components": [
                "schemas": [
                    "Error": [
                        "type": "object", "required": ["error", "message"],
                        "properties": ["error": ["type": "string"], "message": ["type": "string"], "applied": ["type": "boolean"]],
                    ],
                    "Snapshot": [
                        "type": "object", "required": ["id", "viewModel", "lastEventId", "outputs"],
                        "properties": [
                            "id": ["type": "string"], "viewModel": ["type": "string"], "lastEventId": ["type": "integer"], "outputs": ["type": "object"],
                        ],
                    ],
                    "Event": [
                        "type": "object",
                        "description":
                            "One server-sent event: an output's value (event = its name, data = its JSON), or the server's own (bindery.reset, bindery.end, bindery.gone, bindery.error)",
                        "properties": ["event": ["type": "string"], "data": ["type": "string"], "id": ["type": "string"], "retry": ["type": "integer"]],
                    ],
                ]
            ],
        ]
        return (try? JSONEncoder.bindery.encode(document)) ?? Data()
    }

    /// `<vm>/<sid>[@<lastEventId>]`, 1 to 64 of them separated by commas.
    private static let sessionsPattern: String = {
        let one = "[A-Za-z0-9_-]{1,64}/([A-Za-z0-9_-]{22}|[0-9a-f]{32})(@[0-9]{1,19})?"
        return "^\(one)(,\(one)){0,63}$"
    }()

    /// An input's request body: JSON, or for an upload the app allows (`Upload`, `UploadRule`)
    /// the file itself, of the types it takes, at most its size.
    private static func content(of schema: JSONValue, rule: UploadRule?) -> JSONValue {
        guard case .object(var object) = schema, object["x-bindery-upload"] == .bool(true), let rule else {
            return ["application/json": ["schema": schema]]
        }
        object["maxLength"] = .number(Double(rule.maxBytes))
        let types = rule.contentTypes.isEmpty ? ["application/octet-stream"] : rule.contentTypes
        return .object(Dictionary(uniqueKeysWithValues: types.map { ($0, ["schema": .object(object)]) }))
    }
}
