// A ViewModel imports `Bindery` only: it re-exports the reactive core.
@_exported import BinderyRx
