import QuoteContract

/// What the metrics take from one librdkafka statistics document (`statistics.interval.ms`):
/// consumer lag per partition and mean round-trip time per broker. The rest is ignored.
/// Field meanings: librdkafka's STATISTICS.md.
struct KafkaStatistics: Sendable, Equatable {
    struct PartitionLag: Sendable, Equatable {
        let topic: String
        let partition: Int
        let lag: Int64
    }

    struct BrokerRoundTrip: Sendable, Equatable {
        /// librdkafka's broker name, `host:port/nodeid`.
        let broker: String
        let seconds: Double
    }

    enum ParseError: Error, Equatable {
        case notAnObject
        case unreadable(JSONReadError)
    }

    /// `consumer` or `producer`.
    let clientType: String
    let consumerLags: [PartitionLag]
    let brokerRoundTrips: [BrokerRoundTrip]

    init(json: String) throws(ParseError) {
        // The document grows with topics and brokers; allow more than an event's 1 MiB.
        let value: JSONValue
        do { value = try JSONReader(maxBytes: 16 << 20).read(json) } catch { throw .unreadable(error) }
        guard case .object(let root) = value else { throw .notAnObject }
        clientType = root["type"]?.text ?? "unknown"

        var lags: [PartitionLag] = []
        for topic in root["topics"]?.object?.members ?? [] {
            for member in topic.value.object?["partitions"]?.object?.members ?? [] {
                guard let p = member.value.object, let partition = p["partition"]?.integer, partition >= 0,
                      p["fetch_state"]?.text.map({ $0 != "none" && $0 != "stopped" }) ?? false,
                      let lag = Self.lag(p)
                else { continue }
                lags.append(PartitionLag(topic: topic.key, partition: Int(partition), lag: lag))
            }
        }
        consumerLags = lags.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }

        var trips: [BrokerRoundTrip] = []
        for member in root["brokers"]?.object?.members ?? [] {
            // Bootstrap entries (nodeid -1) and the logical GroupCoordinator are not brokers of their own.
            guard let b = member.value.object, let node = b["nodeid"]?.integer, node >= 0, member.key != "GroupCoordinator",
                  let rtt = b["rtt"]?.object, let count = rtt["cnt"]?.integer, count > 0,
                  let micros = rtt["avg"]?.double else { continue }
            trips.append(BrokerRoundTrip(broker: b["name"]?.text ?? member.key, seconds: micros / 1_000_000))
        }
        brokerRoundTrips = trips.sorted { $0.broker < $1.broker }
    }

    /// librdkafka's `consumer_lag`, or, before the group's first commit on the partition (lag -1),
    /// the distance from the low watermark: with `auto.offset.reset=earliest` that is where it starts.
    private static func lag(_ p: JSONObject) -> Int64? {
        if let lag = p["consumer_lag"]?.integer, lag >= 0 { return lag }
        let committed = p["committed_offset"]?.integer ?? -1
        guard committed < 0, let low = p["lo_offset"]?.integer, low >= 0 else { return nil }
        // ls_offset is the end a read_committed consumer (librdkafka's default) can reach.
        guard let end = [p["ls_offset"]?.integer, p["hi_offset"]?.integer].compactMap({ $0 }).first(where: { $0 >= 0 }) else { return nil }
        return max(0, end - low)
    }
}

private extension JSONValue {
    var object: JSONObject? { if case .object(let o) = self { o } else { nil } }
    var text: String? { if case .string(let s) = self { s } else { nil } }
    var integer: Int64? { if case .number(let n) = self { Int64(n) } else { nil } }
    /// Statistics are counts and microseconds, not money: a binary float is fine here.
    var double: Double? { if case .number(let n) = self { Double(n) } else { nil } }
}
