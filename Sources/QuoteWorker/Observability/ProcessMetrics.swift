import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `process_*` metrics every Prometheus client library exports (client_golang's process
/// collector: the same names, units and sources), read from `/proc/self` at scrape time. Where
/// there is no procfs (macOS) the series are simply absent.
enum ProcessMetrics {
    /// The figures of one reading; nil where a file could not be read.
    struct Reading: Equatable {
        var cpuSeconds: Double?
        var residentBytes: Double?
        var virtualBytes: Double?
        var openFDs: Double?
        var maxFDs: Double?
        var startTimeSeconds: Double?
    }

    /// The system's constants the figures are scaled by.
    struct Scale {
        var ticksPerSecond: Double
        var pageSize: Double
        /// `btime` of `/proc/stat`: when the machine booted, in seconds since the epoch.
        var bootTime: Double?

        static let system = Scale(ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))),
                                  pageSize: Double(sysconf(Int32(_SC_PAGESIZE))),
                                  bootTime: (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap(bootTime(procStat:)))
    }

    static func register(in registry: MetricsRegistry, procfs: String = "/proc/self", scale: Scale = .system) {
        // The start time does not change: read once.
        let start = read(procfs: procfs, scale: scale).startTimeSeconds
        func gauge(_ name: String, _ help: String, type: MetricsRegistry.SampledType = .gauge,
                   _ value: @escaping @Sendable (Reading) -> Double?) {
            registry.sampled(name, help: help, type: type) {
                value(read(procfs: procfs, scale: scale)).map { [[]: $0] } ?? [:]
            }
        }
        gauge("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", type: .counter) { $0.cpuSeconds }
        gauge("process_resident_memory_bytes", "Resident memory size in bytes.") { $0.residentBytes }
        gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.") { $0.virtualBytes }
        gauge("process_open_fds", "Number of open file descriptors.") { $0.openFDs }
        gauge("process_max_fds", "Maximum number of open file descriptors.") { $0.maxFDs }
        registry.sampled("process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.",
                         type: .gauge) { start.map { [[]: $0] } ?? [:] }
    }

    static func read(procfs: String, scale: Scale) -> Reading {
        var reading = Reading()
        if let stat = try? String(contentsOfFile: procfs + "/stat", encoding: .utf8) {
            reading = parse(stat: stat, scale: scale)
        }
        if let limits = try? String(contentsOfFile: procfs + "/limits", encoding: .utf8) {
            reading.maxFDs = maxOpenFiles(limits: limits)
        }
        if let fds = try? FileManager.default.contentsOfDirectory(atPath: procfs + "/fd") {
            reading.openFDs = Double(fds.count)
        }
        return reading
    }

    /// `/proc/[pid]/stat` (proc(5)): the fields after the command name, which is in parentheses and
    /// may itself hold spaces and parentheses, so counting starts after the last `)`.
    static func parse(stat: String, scale: Scale) -> Reading {
        var reading = Reading()
        guard let close = stat.lastIndex(of: ")") else { return reading }
        // fields[0] is proc(5)'s field 3 (state).
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
        if let user = field(14), let system = field(15) { reading.cpuSeconds = (user + system) / scale.ticksPerSecond }
        reading.virtualBytes = field(23)
        reading.residentBytes = field(24).map { $0 * scale.pageSize }
        if let started = field(22), let boot = scale.bootTime { reading.startTimeSeconds = boot + started / scale.ticksPerSecond }
        return reading
    }

    /// The soft limit of `Max open files` in `/proc/[pid]/limits`.
    static func maxOpenFiles(limits: String) -> Double? {
        for line in limits.split(separator: "\n") where line.hasPrefix("Max open files") {
            let soft = line.dropFirst("Max open files".count).split(separator: " ").first
            return soft.flatMap { $0 == "unlimited" ? .infinity : Double($0) }
        }
        return nil
    }

    /// `btime` of `/proc/stat`.
    static func bootTime(procStat: String) -> Double? {
        for line in procStat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
