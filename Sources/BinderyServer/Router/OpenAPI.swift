import Bindery
import Foundation

/// The OpenAPI 3.1 document of protocol v1, generated from the catalog.
enum OpenAPI {
    static func document(for catalog: Catalog) -> Data {
        var paths: [String: JSONValue] = [:]
        let error: JSONValue = ["description": "JSON error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
        let snapshot: JSONValue = ["description": "Snapshot", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Snapshot"]]]]
        let sid: JSONValue = ["name": "sid", "in": "path", "required": true, "schema": ["type": "string"]]
        paths["/api"] = ["get": ["summary": "The catalog of ViewModels", "responses": ["200": ["description": "Catalog"]]]]
        paths["/api/streams"] = ["get": [
            "summary": "Several sessions' event streams on one connection; each event starts with a `session: <vm>/<sid>` line",
            "parameters": [[
                "name": "sessions", "in": "query", "required": true, "schema": ["type": "string"],
                "description": "<vm>/<sid>[@<lastEventId>], separated by commas (at most 64)",
            ]],
            "responses": ["200": ["description": "text/event-stream", "content": ["text/event-stream": ["schema": ["type": "string"]]]],
                          "400": error, "503": error],
        ]]
        for entry in catalog.viewModels {
            let base = "/api/\(entry.name)"
            paths[base] = ["post": [
                "summary": .string("Create a \(entry.name) session"),
                "requestBody": ["required": false, "content": ["application/json": ["schema": ["type": "object"]]]],
                "responses": ["201": snapshot, "404": error, "400": error, "503": error],
            ]]
            paths["\(base)/{sid}"] = [
                "parameters": [sid],
                "get": ["summary": "Snapshot (JSON) or event stream (Accept: text/event-stream)", "responses": ["200": snapshot, "404": error]],
                "delete": ["summary": "Dispose the session", "responses": ["204": ["description": "Disposed"], "404": error]],
            ]
            paths["\(base)/{sid}/events"] = ["parameters": [sid], "get": [
                "summary": "Event stream", "responses": ["200": ["description": "text/event-stream", "content": ["text/event-stream": ["schema": ["type": "string"]]]], "404": error],
            ]]
            for input in entry.inputs {
                let isVoid = input.schema["type"] == "null"
                paths["\(base)/{sid}/inputs/\(input.name)"] = ["parameters": [sid], "post": [
                    "summary": .string("Send \(input.name)"),
                    "requestBody": ["required": .bool(!isVoid), "content": ["application/json": ["schema": input.schema]]],
                    "responses": ["200": snapshot, "400": error, "404": error, "415": error],
                ]]
            }
            for output in entry.outputs where output.kind == .driver {
                paths["\(base)/{sid}/outputs/\(output.name)"] = ["parameters": [sid], "get": [
                    "summary": .string("Current value of \(output.name)"),
                    "responses": ["200": ["description": "Value", "content": ["application/json": ["schema": output.schema]]], "404": error],
                ]]
            }
        }
        let document: JSONValue = [
            "openapi": "3.1.0",
            "info": ["title": "Bindery", "version": "1"],
            "paths": .object(paths),
            "components": ["schemas": [
                "Error": ["type": "object", "required": ["error", "message"], "properties": ["error": ["type": "string"], "message": ["type": "string"]]],
                "Snapshot": ["type": "object", "required": ["id", "viewModel", "lastEventId", "outputs"], "properties": [
                    "id": ["type": "string"], "viewModel": ["type": "string"], "lastEventId": ["type": "integer"], "outputs": ["type": "object"],
                ]],
            ]],
        ]
        return (try? JSONEncoder.bindery.encode(document)) ?? Data()
    }
}
