/// One reply as the takeover bench's reader saw it: on which partition, when, and when the event
/// it answers was sent (both uptime nanoseconds).
struct ReplyArrival: Sendable, Equatable {
    let partition: Int32
    let receivedAt: UInt64
    let eventSentAt: UInt64
}

/// The pure part of the takeover figure: when each partition of the killed worker was answered again.
enum TakeoverTimeline {
    /// For each of `partitions`, the seconds from `killedAt` to the first reply received on it
    /// that answers an event sent after the kill: only a live owner can have written such a reply,
    /// so a reply the killed worker had already sent, read a moment after its death, does not count.
    /// A partition that got no such reply is absent. Replies are keyed by session and the reply topic
    /// is co-partitioned with the input, so a reply's partition is its event's.
    static func firstReplies(_ arrivals: [ReplyArrival], killedAt: UInt64, partitions: Set<Int32>) -> [Int32: Double] {
        var first: [Int32: UInt64] = [:]
        for a in arrivals where partitions.contains(a.partition) && a.eventSentAt > killedAt {
            if let seen = first[a.partition], seen <= a.receivedAt { continue }
            first[a.partition] = a.receivedAt
        }
        return first.mapValues { Double($0 &- killedAt) / 1e9 }
    }
}
