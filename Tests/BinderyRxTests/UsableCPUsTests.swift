import XCTest

@testable import BinderyRx

/// What the thread pools are sized from: the CPUs the process may use, not the host's.
final class UsableCPUsTests: XCTestCase {
    func testAQuotaIsCountedInWholeCPUsRoundedUp() {
        XCTAssertEqual(UsableCPUs.quota(cpuMax: "200000 100000\n"), 2)
        XCTAssertEqual(UsableCPUs.quota(cpuMax: "150000 100000"), 2)
        XCTAssertEqual(UsableCPUs.quota(cpuMax: "50000 100000"), 1)
        XCTAssertNil(UsableCPUs.quota(cpuMax: "max 100000"))
        XCTAssertNil(UsableCPUs.quota(cpuMax: ""))
    }

    func testACPUListCountsItsRangesAndSingles() {
        XCTAssertEqual(UsableCPUs.cpuCount(list: "0-15"), 16)
        XCTAssertEqual(UsableCPUs.cpuCount(list: "\t0,2-3,8\n"), 4)
        XCTAssertEqual(UsableCPUs.cpuCount(list: "0"), 1)
        XCTAssertNil(UsableCPUs.cpuCount(list: "3-1"))
        XCTAssertNil(UsableCPUs.cpuCount(list: ""))
    }

    func testTheCgroupIsTheUnifiedHierarchysLine() {
        XCTAssertEqual(UsableCPUs.cgroupDirectory("0::/system.slice/bindery.service\n"), "/system.slice/bindery.service")
        XCTAssertEqual(UsableCPUs.cgroupDirectory("12:cpu:/old\n0::/\n"), "/")
        XCTAssertNil(UsableCPUs.cgroupDirectory("12:cpu,cpuacct:/docker/abc\n"), "cgroup v1 only: no quota read")
    }

    func testTheCountIsNeverMoreThanTheHostsNorLessThanOne() {
        XCTAssertGreaterThanOrEqual(UsableCPUs.count, 1)
        XCTAssertLessThanOrEqual(UsableCPUs.count, ProcessInfo.processInfo.activeProcessorCount)
    }
}
