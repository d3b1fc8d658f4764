@_exported import BinderyRx
