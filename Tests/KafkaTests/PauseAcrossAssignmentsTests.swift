import Foundation
import Kafka
import KafkaTesting
import Testing

/// librdkafka (2.0.2) keeps an application's pause across a revocation and a later assignment of
/// the same partition: a partition paused when it is revoked is never fetched again in its next
/// assignment unless it is resumed. This is why the worker resumes, at a revoke, every partition it
/// fetched (`PartitionLifecycle.revoked`).
@Suite(.serialized) struct PauseAcrossAssignmentsTests {
    final class Member: @unchecked Sendable {
        var consumer: KafkaConsumer?
        var events: [KafkaRebalanceEvent] = []
    }

    @Test(arguments: [true, false])
    func aPartitionPausedWhenRevokedIsFetchedInItsNextAssignmentOnlyIfResumedAtTheRevoke(resumeAtRevoke: Bool) throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, topics: [KafkaTopicSpec("t", partitions: 1)])
        let tp = KafkaTopicPartition("t", 0)
        _ = try EmbeddedRoundTripTests.produce([KafkaOutgoingMessage(topic: "t", key: nil, value: [1])], to: cluster)
        let config = EmbeddedRoundTripTests.consumerConfiguration(cluster, group: "g")

        let a = Member()
        a.consumer = try KafkaConsumer(configuration: config) { [a] event in
            a.events.append(event)
            if resumeAtRevoke, case .revoked(let partitions) = event { a.consumer?.resume(partitions) }
        }
        let first = try #require(a.consumer)
        // The handler holds the member, which holds the consumer: the cycle is broken at the end.
        defer { first.close(); a.consumer = nil }
        try first.subscribe(["t"])
        var received: [KafkaMessage] = []
        var deadline = Date().addingTimeInterval(30)
        while received.isEmpty && Date() < deadline { received += first.poll(maxMessages: 10, timeoutMs: 50) }
        try #require(received.map(\.value) == [[1]])
        try first.commit([tp: received[0].offset + 1])
        first.pause([tp])

        // A second member joins (everything is revoked, eagerly) and leaves: the partition comes back.
        let b = try KafkaConsumer(configuration: config) { _ in }
        try b.subscribe(["t"])
        deadline = Date().addingTimeInterval(30)
        while !a.events.contains(.revoked([tp])) && Date() < deadline {
            received += first.poll(maxMessages: 10, timeoutMs: 50)
            received += b.poll(maxMessages: 10, timeoutMs: 50)
        }
        try #require(a.events.contains(.revoked([tp])), "the second member's join revoked nothing: \(a.events)")
        b.close()
        let assignments = a.events.filter { $0 == .assigned([tp]) }.count
        deadline = Date().addingTimeInterval(30)
        while a.events.filter({ $0 == .assigned([tp]) }).count == assignments && Date() < deadline {
            received += first.poll(maxMessages: 10, timeoutMs: 50)
        }
        try #require(a.events.last == .assigned([tp]), "the partition did not come back: \(a.events)")

        _ = try EmbeddedRoundTripTests.produce([KafkaOutgoingMessage(topic: "t", key: nil, value: [2])], to: cluster)
        deadline = Date().addingTimeInterval(resumeAtRevoke ? 30 : 5)
        var later: [KafkaMessage] = []
        while later.isEmpty && Date() < deadline { later += first.poll(maxMessages: 10, timeoutMs: 50) }
        #expect(received.map(\.value) == [[1]])
        #expect(later.map(\.value) == (resumeAtRevoke ? [[2]] : []))
    }
}
