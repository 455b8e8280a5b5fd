import QuoteBench
import Testing

/// What makes no run at all is refused before any broker starts, with the words a person is told.
@Suite struct BenchSettingsTests {
    @Test func aRateIsMaxOrAPositiveWholeNumberPerSecond() throws {
        #expect(try BenchSettings.Rate(flag: "max") == .max)
        #expect(try BenchSettings.Rate(flag: "250") == .fixed(250))
        #expect(BenchSettings.Rate.fixed(250).description == "250/s")
        for bad in ["fast", "0", "-5", "2.5", ""] {
            #expect(throws: BenchSettingsError("--rate expects max or a positive whole number of events/s, got \(bad)")) {
                try BenchSettings.Rate(flag: bad)
            }
        }
    }

    @Test func theDefaultsAreARun() throws {
        try BenchSettings().validate()
    }

    @Test func negativeOrZeroCountsAreRefused() {
        let refusal = BenchSettingsError("bench: --workers, --sessions, --events, --partitions, --max-batch and --duration must be positive")
        let changes: [(inout BenchSettings) -> Void] = [
            { $0.workers = -1 }, { $0.sessions = 0 }, { $0.events = -10 }, { $0.partitions = 0 }, { $0.maxBatch = -1 },
            { $0.duration = 0 }, { $0.drainTimeout = -1 },
        ]
        for change in changes {
            var settings = BenchSettings()
            change(&settings)
            #expect(throws: refusal) { try settings.validate() }
        }
    }

    @Test func aBurstFractionOutsideZeroToOneIsRefused() {
        var settings = BenchSettings()
        settings.burstFraction = 1.5
        #expect(throws: BenchSettingsError("--burst-fraction must be between 0 and 1")) { try settings.validate() }
        settings.burstFraction = 1
        #expect(throws: Never.self) { try settings.validate() }
    }

    @Test func roundsAreOneToTenAndCompareRunsOne() {
        var settings = BenchSettings()
        for bad in [0, -1, 11] {
            settings.rounds = bad
            #expect(throws: BenchSettingsError("--rounds must be from 1 to 10")) { try settings.validate() }
        }
        settings.rounds = 10
        #expect(throws: Never.self) { try settings.validate() }
        settings.rounds = 2
        settings.compare = true
        #expect(throws: BenchSettingsError("--compare runs one round; drop --rounds")) { try settings.validate() }
    }

    @Test func compareWithoutTheEchoIsRefused() {
        var settings = BenchSettings()
        settings.compare = true
        settings.echo = false
        #expect(throws: BenchSettingsError("--compare needs the echo worker; drop --no-echo")) { try settings.validate() }
    }
}
