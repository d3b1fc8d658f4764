// An app's `main.swift` imports `BinderyServer` only: it re-exports the runtime
// (and through it the reactive core).
@_exported import Bindery
@_exported import Logging
