import Foundation
import Testing

/// `scripts/sanitizers/tsan-test.sh` preloads a library of two stand-ins, and works only while they
/// match what they stand in for: `c11-threads.c` must define every C11 thread function librdkafka
/// calls that ThreadSanitizer must see (one left to glibc is invisible to TSan, and a thread made by
/// glibc's `thrd_create` crashes TSan itself), and `mutex-handoff.c` must name the slow paths that
/// the toolchain's libswiftSynchronization exports. Checked against this machine's librdkafka and
/// toolchain, built with the toolchain's clang, so that a new librdkafka (calling `mtx_timedlock`,
/// say) or a new Swift is caught here rather than in a crash or false reports under TSan.
@Suite struct SanitizerScriptsTests {
    /// C11 thread functions that need no stand-in: they neither make threads nor synchronize.
    static let seenWithoutInterception: Set<String> = ["thrd_current", "thrd_equal", "thrd_sleep", "thrd_yield"]

    static func c11ThreadFunctions(_ nmOutput: String) -> Set<String> {
        Set(nmOutput.split(separator: "\n").compactMap { line -> String? in
            guard let name = line.split(separator: " ").last?.split(separator: "@").first else { return nil }
            let symbol = String(name)
            let prefixes = ["thrd_", "mtx_", "cnd_", "tss_", "call_once"]
            return prefixes.contains(where: symbol.hasPrefix) ? symbol : nil
        })
    }

    @Test func thePreloadedStandInsMatchThisMachinesLibrdkafkaAndSwift() throws {
        let nm = try #require(ExternalTool.find("nm"), "nm (binutils, which the Swift toolchain needs) is not on PATH")
        let clang = try #require(Self.clang(), "no clang on PATH nor in the Swift toolchain")
        let pkgConfig = try #require(ExternalTool.find("pkg-config"), "pkg-config is not on PATH (make deps installs it)")
        let libdir = try ExternalTool.run(pkgConfig, ["--variable=libdir", "rdkafka"], separateErrors: true)
        try #require(libdir.status == 0 && !libdir.output.isEmpty, "pkg-config knows no rdkafka: \(libdir.output)")

        let imported = try ExternalTool.run(nm, ["-D", "--undefined-only", "\(libdir.output)/librdkafka.so"])
        try #require(imported.status == 0, "nm: \(imported.output)")
        let needed = Self.c11ThreadFunctions(imported.output).subtracting(Self.seenWithoutInterception)
        // Debian's librdkafka 2.0.2 is built on C11 threads; were it not, the shim would be moot.
        #expect(needed.isSuperset(of: ["thrd_create", "thrd_join", "mtx_lock", "mtx_unlock", "cnd_wait", "cnd_timedwait"]),
                "librdkafka's C11 thread functions: \(needed.sorted())")

        let shim = FileManager.default.temporaryDirectory.appendingPathComponent("tsan-preload-\(getpid()).so").path
        defer { try? FileManager.default.removeItem(atPath: shim) }
        let compiled = try ExternalTool.run(clang, ["-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror", "-o", shim,
                                                    "scripts/sanitizers/c11-threads.c", "scripts/sanitizers/mutex-handoff.c", "-ldl"])
        try #require(compiled.status == 0, "clang: \(compiled.output)")
        let defined = try ExternalTool.run(nm, ["-D", "--defined-only", shim])
        try #require(defined.status == 0, "nm: \(defined.output)")
        let missing = needed.subtracting(Self.c11ThreadFunctions(defined.output))
        #expect(missing.isEmpty, "librdkafka calls these C11 thread functions, which c11-threads.c does not define: \(missing.sorted())")

        // The Mutex slow paths it stands in for are the ones the toolchain's library exports.
        let mutexSlowPaths: Set<String> = ["$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF",
                                           "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF",
                                           "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"]
        let shimNames = Set(defined.output.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        #expect(shimNames.isSuperset(of: mutexSlowPaths))
        let synchronization = try #require(Self.loadedSynchronizationLibrary(), "this process has no libswiftSynchronization.so mapped")
        let exported = try ExternalTool.run(nm, ["-D", "--defined-only", synchronization])
        try #require(exported.status == 0, "nm: \(exported.output)")
        let slowPaths = Set(exported.output.split(separator: "\n").compactMap { line -> String? in
            guard let name = line.split(separator: " ").last, name.contains("12_MutexHandleV"), name.contains("Slow") else { return nil }
            return String(name)
        })
        #expect(slowPaths == mutexSlowPaths, "libswiftSynchronization's Mutex slow paths changed: \(slowPaths.sorted())")
    }

    /// The libswiftSynchronization.so this test process runs with, from /proc/self/maps.
    static func loadedSynchronizationLibrary() -> String? {
        // Read to its end: /proc files say they are empty, so a read by size gets nothing.
        guard let maps = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? maps.close() }
        return String(decoding: maps.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
            .first { $0.hasSuffix("/libswiftSynchronization.so") }
    }

    /// clang on PATH, else the one in the toolchain this process runs with (`usr/bin` beside `usr/lib/swift/linux`).
    static func clang() -> String? {
        if let onPath = ExternalTool.find("clang") { return onPath }
        guard let library = loadedSynchronizationLibrary() else { return nil }
        let usr = URL(fileURLWithPath: library).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let beside = usr.appendingPathComponent("bin/clang").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
    }

    @Test func theScriptsPreloadTheShimAndUseTheSuppressions() throws {
        let tsan = try Repository.text("scripts/sanitizers/tsan-test.sh")
        #expect(tsan.contains("scripts/sanitizers/c11-threads.c scripts/sanitizers/mutex-handoff.c"))
        #expect(tsan.contains("export LD_PRELOAD=\"$PWD/$SCRATCH/libtsan-preload.so\""))
        #expect(tsan.contains("--sanitize=thread"))
        let asan = try Repository.text("scripts/sanitizers/asan-test.sh")
        #expect(asan.contains("suppressions=$PWD/scripts/sanitizers/lsan.supp"))
        #expect(asan.contains("--sanitize=address"))
        // A suppression matches any frame of a stack: none may name a whole library the project's own
        // stacks pass through, nor use `$` (it ends a pattern, so a mangled name would match nothing).
        let suppressions = try Repository.text("scripts/sanitizers/lsan.supp").split(separator: "\n")
            .filter { $0.hasPrefix("leak:") }.map { String($0.dropFirst("leak:".count)) }
        #expect(suppressions.count >= 1 && suppressions.contains("formWeakReference"))
        for pattern in suppressions {
            #expect(!pattern.contains("$") && !pattern.contains("*"), "\(pattern)")
            for library in ["libFoundation", "libFoundationEssentials", "libswiftCore", "libdispatch", "libXCTest",
                            "librdkafka", "Foundation6ThreadC", "QuoteWorker", "Kafka0A"] {
                #expect(!pattern.contains(library), "lsan.supp: \(pattern) hides stacks through \(library)")
            }
        }
    }
}
