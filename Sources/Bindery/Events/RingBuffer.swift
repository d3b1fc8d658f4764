/// A fixed-capacity FIFO that drops its oldest element when full.
struct RingBuffer<Element>: Sequence {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) { storage = Array(repeating: nil, count: capacity) }

    /// How many elements it holds at most.
    var capacity: Int { storage.count }

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

    /// Calls `body` with the newest `last` elements (all of them if there are fewer), oldest first.
    func forEach(last: Int, _ body: (Element) throws -> Void) rethrows {
        let taken = Swift.min(last, count)
        var index = head + count - taken
        for _ in 0..<taken {
            try body(storage[index % storage.count]!)
            index += 1
        }
    }

    func makeIterator() -> Iterator { Iterator(buffer: self) }

    /// Oldest first.
    struct Iterator: IteratorProtocol {
        let buffer: RingBuffer
        var index = 0

        mutating func next() -> Element? {
            guard index < buffer.count else { return nil }
            defer { index += 1 }
            return buffer.storage[(buffer.head + index) % buffer.storage.count]
        }
    }
}
