import Foundation
import Kafka
import MetricsHTTP
import QuoteWorker
import Testing

/// Flags > environment > config file > defaults; secrets never printed; a bad value's message names it.
@Suite struct ConfigurationTests {
    /// A config file in a fresh temporary directory.
    static func file(_ text: String, name: String = "shipquote.conf") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shipquote-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let minimal = ["SHIPQUOTE_RULES": "/rules", "SHIPQUOTE_BOOTSTRAP_SERVERS": "k:9092"]

    @Test func defaultsApplyWhenNothingElseSays() throws {
        let s = try ConfigurationResolver.resolve(ConfigurationSources(environment: Self.minimal))
        #expect(s.topics.addressChanged == "shipping.address-changed")
        #expect(s.shutdownGrace == .seconds(10))
        #expect(s.defaultTimeToLive == 30)
        #expect(s.logLevel == .info)
        #expect(s.metricsListen == nil)
        #expect(s.kafka["group.id"] == "shipquote")
        #expect(s.kafka["statistics.interval.ms"] == nil, "no listener: nobody reads statistics")
    }

    @Test func staticMembershipIsOffUnlessAnInstanceIdIsGiven() throws {
        let dynamic = try ConfigurationResolver.resolve(ConfigurationSources(environment: Self.minimal))
        #expect(dynamic.kafka["group.instance.id"] == nil)
        var env = Self.minimal
        env["SHIPQUOTE_GROUP_INSTANCE_ID"] = "shipquote-0"
        let fromPod = try ConfigurationResolver.resolve(ConfigurationSources(environment: env))
        #expect(fromPod.kafka["group.instance.id"] == "shipquote-0")
        #expect(fromPod.printed.contains("kafka.group.instance.id=shipquote-0  # environment SHIPQUOTE_GROUP_INSTANCE_ID"))
        let flag = try ConfigurationResolver.resolve(ConfigurationSources(
            flags: ["group-instance-id": "w-2"], kafkaAssignments: ["group.instance.id=x"], environment: env))
        #expect(flag.kafka["group.instance.id"] == "w-2")
        // A consumer-only property: the producer never sees it.
        #expect(flag.workerConfiguration.producerKafka["group.instance.id"] == nil)
    }

    @Test func flagsBeatEnvironmentBeatConfigFileBeatDefaults() throws {
        let config = try Self.file("""
        # every level sets log-level; only some set the others
        rules=/from-file
        log-level=error
        shutdown-grace=20
        default-ttl=40
        group=file-group
        bootstrap-servers=file:9092
        kafka.linger.ms=7
        kafka.sasl.username=file-user
        """)
        let s = try ConfigurationResolver.resolve(ConfigurationSources(
            flags: ["log-level": "debug", "config": config, "metrics-listen": "127.0.0.1:0"],
            kafkaAssignments: ["linger.ms=9"],
            environment: ["SHIPQUOTE_LOG_LEVEL": "warning", "SHIPQUOTE_SHUTDOWN_GRACE": "15",
                          "SHIPQUOTE_KAFKA_SASL_USERNAME": "env-user", "PATH": "/usr/bin"]))
        #expect(s.logLevel == .debug)                         // flag over env and file
        #expect(s.shutdownGrace == .seconds(15))              // env over file
        #expect(s.defaultTimeToLive == 40)                    // file over default
        #expect(s.rulesPath == "/from-file")
        #expect(s.maxBatch == 2000)                           // default
        #expect(s.kafka["linger.ms"] == "9")                  // -X over kafka. in the file
        #expect(s.kafka["sasl.username"] == "env-user")       // SHIPQUOTE_KAFKA_ over kafka. in the file
        #expect(s.kafka["group.id"] == "file-group")
        #expect(s.kafka["bootstrap.servers"] == "file:9092")
        #expect(s.kafka["statistics.interval.ms"] == "15000") // a listener turns statistics on
        #expect(s.metricsListen == HTTPListenAddress(host: "127.0.0.1", port: 0))
        #expect(s.printed.contains("log-level=debug  # flag --log-level"))
        #expect(s.printed.contains("shutdown-grace=15  # environment SHIPQUOTE_SHUTDOWN_GRACE"))
        #expect(s.printed.contains("default-ttl=40  # \(config):5"))
        #expect(s.printed.contains("max-batch=2000  # default"))
    }

    @Test func aDedicatedSettingBeatsThePassThroughPropertyOnlyAtTheSameLevel() throws {
        let kafkaFile = try Self.file("bootstrap.servers=props:9092\ngroup.id=props-group\n", name: "client.properties")
        let s = try ConfigurationResolver.resolve(ConfigurationSources(
            flags: ["rules": "/r", "kafka-properties": kafkaFile, "bootstrap-servers": "flag:9092"],
            kafkaAssignments: ["group.id=x-group"], environment: ["SHIPQUOTE_GROUP": "env-group"]))
        #expect(s.kafka["bootstrap.servers"] == "flag:9092")  // flag over the properties file
        #expect(s.kafka["group.id"] == "x-group")             // -X (a flag) over SHIPQUOTE_GROUP (environment)
    }

    @Test func secretsAreRedactedWhereverTheyComeFrom() throws {
        let config = try Self.file("kafka.ssl.key.password=file-secret\nkafka.sasl.mechanisms=SCRAM-SHA-512\n")
        let s = try ConfigurationResolver.resolve(ConfigurationSources(
            flags: ["config": config], kafkaAssignments: ["sasl.oauthbearer.client.secret=x-secret"],
            environment: Self.minimal.merging(["SHIPQUOTE_KAFKA_SASL_PASSWORD": "env-secret"]) { a, _ in a }))
        #expect(s.kafka["sasl.password"] == "env-secret", "the worker still gets the secret")
        for secret in ["env-secret", "file-secret", "x-secret"] { #expect(!s.printed.contains(secret)) }
        #expect(s.printed.contains("kafka.sasl.password=[redacted]  # environment SHIPQUOTE_KAFKA_SASL_PASSWORD"))
        #expect(s.printed.contains("kafka.ssl.key.password=[redacted]"))
        #expect(s.printed.contains("kafka.sasl.mechanisms=SCRAM-SHA-512"))
    }

    @Test func aBadValueNamesTheSettingAndWhereItCameFrom() throws {
        func failure(_ sources: ConfigurationSources) -> String {
            do { _ = try ConfigurationResolver.resolve(sources); return "no error" } catch { return error.description }
        }
        #expect(failure(ConfigurationSources(flags: ["shutdown-grace": "soon"], environment: Self.minimal))
                == "shutdown-grace=soon (from flag --shutdown-grace): expected a whole number of seconds, 0 or more")
        #expect(failure(ConfigurationSources(environment: Self.minimal.merging(["SHIPQUOTE_METRICS_LISTEN": "9464"]) { a, _ in a }))
                .hasPrefix("metrics-listen=9464 (from environment SHIPQUOTE_METRICS_LISTEN): expected HOST:PORT"))
        #expect(failure(ConfigurationSources(environment: Self.minimal.merging(["SHIPQUOTE_LOG_LEVEL": "loud"]) { a, _ in a }))
                == "log-level=loud (from environment SHIPQUOTE_LOG_LEVEL): expected debug, info, warning or error")
        #expect(failure(ConfigurationSources(flags: ["input-topic": "bad topic"], environment: Self.minimal))
                .hasPrefix("input-topic=bad topic (from flag --input-topic): expected a Kafka topic name"))
        #expect(failure(ConfigurationSources(flags: ["rules": "/r"])).hasPrefix("bootstrap-servers is required"))
        #expect(failure(ConfigurationSources(flags: ["bootstrap-servers": "k:1"])).hasPrefix("rules is required"))
        #expect(failure(ConfigurationSources(environment: Self.minimal.merging(["SHIPQUOTE_RULEZ": "/r"]) { a, _ in a }))
                .hasPrefix("unknown setting SHIPQUOTE_RULEZ (from environment SHIPQUOTE_RULEZ)"))
        #expect(failure(ConfigurationSources(kafkaAssignments: ["linger.ms"], environment: Self.minimal))
                .hasPrefix("-X=linger.ms (from flag -X): expected key=value"))

        let config = try Self.file("rules=/r\nhealth-stale-after=0\n")
        #expect(failure(ConfigurationSources(flags: ["config": config], environment: ["SHIPQUOTE_BOOTSTRAP_SERVERS": "k:1"]))
                == "health-stale-after=0 (from \(config):2): expected a whole number of seconds, 1 or more")
        let typo = try Self.file("rules=/r\n\nshutdown_grace=5\n")
        #expect(failure(ConfigurationSources(flags: ["config": typo]))
                .hasPrefix("unknown setting shutdown_grace (from \(typo):3)"))
        #expect(failure(ConfigurationSources(flags: ["config": "/nonexistent/shipquote.conf"]))
                .hasPrefix("config /nonexistent/shipquote.conf: cannot be read"))
    }

    @Test func emptyMetricsListenTurnsTheListenerOff() throws {
        let s = try ConfigurationResolver.resolve(ConfigurationSources(
            environment: Self.minimal.merging(["SHIPQUOTE_METRICS_LISTEN": ""]) { a, _ in a }))
        #expect(s.metricsListen == nil)
    }

    @Test func theWorkerConfigurationCarriesTheSettings() throws {
        let s = try ConfigurationResolver.resolve(ConfigurationSources(
            flags: ["max-batch": "50", "default-ttl": "0", "dlq-topic": "dlq"], environment: Self.minimal))
        let w = s.workerConfiguration
        #expect(w.maxBatch == 50)
        #expect(w.defaultTimeToLive == nil)
        #expect(w.topics.deadLetters == "dlq")
        #expect(try w.consumerKafka["group.id"] == "shipquote")
    }

    /// State records have a producer of their own: the reply producer's properties, with the
    /// `state-linger` as its linger (100 ms unless set) whatever the replies' linger is.
    @Test func theStateProducerLingersForTheStateLingerWhateverTheRepliesDo() throws {
        let defaults = try ConfigurationResolver.resolve(ConfigurationSources(environment: Self.minimal))
        #expect(defaults.stateLinger == .milliseconds(100))
        #expect(defaults.printed.contains("state-linger=100  # default"))
        let w = defaults.workerConfiguration
        #expect(w.stateLinger == .milliseconds(100))
        #expect(w.producerKafka["linger.ms"] == "1")
        #expect(w.stateProducerKafka["linger.ms"] == "100")
        var replies = w.producerKafka
        replies["linger.ms"] = nil
        var state = w.stateProducerKafka
        state["linger.ms"] = nil
        #expect(state == replies, "security, idempotence and partitioner as the reply producer's")

        let tuned = try ConfigurationResolver.resolve(ConfigurationSources(
            flags: ["state-linger": "0", "metrics-listen": "127.0.0.1:0"],
            kafkaAssignments: ["queue.buffering.max.ms=5", "sasl.username=u"], environment: Self.minimal))
        let t = tuned.workerConfiguration
        #expect(t.producerKafka["queue.buffering.max.ms"] == "5")
        #expect(t.stateProducerKafka.properties.filter { ["linger.ms", "queue.buffering.max.ms"].contains($0.key) } == ["linger.ms": "0"])
        #expect(t.stateProducerKafka["sasl.username"] == "u")
        #expect(t.producerKafka["statistics.interval.ms"] == "15000")
        #expect(t.stateProducerKafka["statistics.interval.ms"] == nil, "the metrics read the reply producer's statistics")
        #expect(WorkerConfiguration(stateLinger: .milliseconds(2_500)).stateProducerKafka["linger.ms"] == "2500")
    }

    @Test func aStateLingerIsAWholeNumberOfMillisecondsUpToTenSeconds() throws {
        func failure(_ value: String) -> String {
            do { _ = try ConfigurationResolver.resolve(ConfigurationSources(flags: ["state-linger": value], environment: Self.minimal)); return "no error" }
            catch { return error.description }
        }
        for bad in ["-1", "10001", "0.5", "soon"] {
            #expect(failure(bad) == "state-linger=\(bad) (from flag --state-linger): expected a whole number of milliseconds from 0 to 10000")
        }
        #expect(failure("10000") == "no error")
        let env = try ConfigurationResolver.resolve(ConfigurationSources(environment: Self.minimal.merging(["SHIPQUOTE_STATE_LINGER": "20"]) { a, _ in a }))
        #expect(env.stateLinger == .milliseconds(20))
    }
}
