import Foundation

extension ObservableType {
    /// Prints every event, subscription and disposal, prefixed by `identifier` (by default, the call site).
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> Observable<Element> {
        let name = identifier ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        func log(_ content: String) {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
            print("\(formatter.string(from: Date())): \(name) -> \(content)")
        }
        return Observable { observer in
            log("subscribed")
            let subscription = self.subscribe { event in
                let description = "Event \(event)"
                log(trimOutput && description.count > 40 ? String(description.prefix(37)) + "..." : description)
                observer.on(event)
            }
            return Disposables.create {
                log("isDisposed")
                subscription.dispose()
            }
        }
    }
}
