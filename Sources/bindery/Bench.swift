import ArgumentParser

/// `bindery bench`: measurements, printed as tables.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the benchmarks and print their figures.")

    func run() throws {
        print("no benchmarks yet")
    }
}
