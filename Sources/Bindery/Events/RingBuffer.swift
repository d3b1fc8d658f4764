/// A fixed-capacity FIFO that drops its oldest element when full.
struct RingBuffer<Element>: Sequence {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) { storage = Array(repeating: nil, count: capacity) }

    var first: Element? { count == 0 ? nil : storage[head] }

    /// Appends `element`; returns the oldest one if it made room for it.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        let tail = (head + count) % storage.count
        let evicted = storage[tail]
        storage[tail] = element
        if count == storage.count {
            head = (head + 1) % storage.count
            return evicted
        }
        count += 1
        return nil
    }

    func makeIterator() -> AnyIterator<Element> {
        var index = 0
        return AnyIterator {
            guard index < count else { return nil }
            defer { index += 1 }
            return storage[(head + index) % storage.count]
        }
    }
}
