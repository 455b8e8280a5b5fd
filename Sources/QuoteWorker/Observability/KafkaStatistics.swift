import QuoteContract

/// What the metrics take from one librdkafka statistics document (`statistics.interval.ms`):
/// consumer lag per partition and the round-trip time per broker. The rest is ignored.
/// Field meanings: librdkafka's STATISTICS.md.
///
/// Round trips come from a broker's `rtt` window (request sent to response read, in microseconds,
/// over the statistics interval), never from a wait (`int_latency`, `outbuf_latency` and `throttle`
/// are time spent queued or throttled). The window counts every request on that connection, and a
/// consumer's Fetch is held by the broker up to `fetch.wait.max.ms` (500 ms) when there is nothing
/// new: on a consumer's own broker connections the window is mostly that long-poll. So a consumer's
/// round trip is read from its `GroupCoordinator` connection instead (Heartbeat, OffsetCommit,
/// OffsetFetch: requests a broker answers at once), under the coordinator broker's own name. The
/// window's median (`p50`) is used, not its mean: a JoinGroup or SyncGroup in the window waits for
/// the rebalance and would pull a mean up to seconds.
struct KafkaStatistics: Sendable, Equatable {
    struct PartitionLag: Sendable, Equatable {
        let topic: String
        let partition: Int
        let lag: Int64
    }

    struct BrokerRoundTrip: Sendable, Equatable {
        /// librdkafka's broker name, `host:port/nodeid`.
        let broker: String
        /// The window's median; nil when the window holds no request (an idle producer).
        let seconds: Double?
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

        brokerRoundTrips = Self.roundTrips(root["brokers"]?.object, consumer: clientType == "consumer")
    }

    /// One entry per broker (bootstrap entries, nodeid -1, are not brokers of their own). A
    /// producer's from each broker's window; a consumer's from its coordinator connection only.
    private static func roundTrips(_ brokers: JSONObject?, consumer: Bool) -> [BrokerRoundTrip] {
        let entries = (brokers?.members ?? []).compactMap { member -> (key: String, name: String, node: Int64, rtt: JSONObject?)? in
            guard let b = member.value.object, let node = b["nodeid"]?.integer, node >= 0 else { return nil }
            return (member.key, b["name"]?.text ?? member.key, node, b["rtt"]?.object)
        }
        let coordinator = "GroupCoordinator"
        var trips: [BrokerRoundTrip] = []
        if consumer {
            if let group = entries.first(where: { $0.key == coordinator }) {
                // The logical coordinator connection, named as the broker it is connected to.
                let broker = entries.first { $0.key != coordinator && $0.node == group.node }?.name ?? group.name
                trips.append(BrokerRoundTrip(broker: broker, seconds: median(group.rtt)))
            }
        } else {
            for entry in entries where entry.key != coordinator {
                trips.append(BrokerRoundTrip(broker: entry.name, seconds: median(entry.rtt)))
            }
        }
        return trips.sorted { $0.broker < $1.broker }
    }

    /// The window's `p50` in seconds, or nil when the window is empty (`cnt` 0: all its figures are 0).
    private static func median(_ rtt: JSONObject?) -> Double? {
        guard let rtt, let count = rtt["cnt"]?.integer, count > 0, let micros = rtt["p50"]?.double
        else { return nil }
        return micros / 1_000_000
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
