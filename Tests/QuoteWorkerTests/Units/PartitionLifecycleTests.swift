import Kafka
@testable import QuoteWorker
import Testing

/// assigned → restoring → active → revoked, and what the consumer is told to fetch.
@Suite struct PartitionLifecycleTests {
    static let p0 = KafkaTopicPartition("in", 0)
    static let p1 = KafkaTopicPartition("in", 1)
    static let p2 = KafkaTopicPartition("in", 2)

    static func message(_ tp: KafkaTopicPartition, _ offset: Int64) -> KafkaMessage {
        KafkaMessage(topic: tp.topic, partition: tp.partition, offset: offset, key: nil, value: [])
    }

    @Test func anAssignedPartitionIsNeitherPausedNorResumedBeforeItsFirstRecordArrives() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        #expect(life.restoring == [Self.p0, Self.p1])
        #expect(life.paused.isEmpty)
        // Restoring, and the throttle on: still nothing to tell the consumer about either partition.
        #expect(life.reconcile(throttled: false) == ([], []))
        #expect(life.reconcile(throttled: true) == ([], []))
        // Restored before any record came: fetched as it is, never paused or resumed.
        #expect(life.restored([Self.p0, Self.p1]).isEmpty)
        #expect(life.reconcile(throttled: false) == ([], []))
        #expect(life.paused.isEmpty)
    }

    @Test func aRestoringPartitionIsPausedOnceItsFirstRecordArrivesAndResumedOnceRestored() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        #expect(life.admit([Self.message(Self.p1, 4)]).isEmpty)
        #expect(life.reconcile(throttled: false) == ([Self.p1], []))
        #expect(life.paused == [Self.p1])
        #expect(life.reconcile(throttled: false) == ([], []))
        #expect(life.restored([Self.p0, Self.p1]).map(\.offset) == [4])
        #expect(life.reconcile(throttled: false) == ([], [Self.p1]))
        #expect(life.paused.isEmpty)
    }

    @Test func recordsOfARestoringPartitionAreHeldAndReleasedInOrderOnceItIsActive() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        #expect(life.restored([Self.p1]).isEmpty)
        let ready = life.admit([Self.message(Self.p0, 7), Self.message(Self.p1, 3), Self.message(Self.p0, 8)])
        #expect(ready.map(\.offset) == [3])
        let released = life.restored([Self.p0])
        #expect(released.map(\.offset) == [7, 8])
        #expect(life.phases == [Self.p0: .active, Self.p1: .active])
        // p1 was active when its record came, so only p0 could have been paused meanwhile.
        #expect(life.reconcile(throttled: false) == ([], []))
    }

    @Test func activePartitionsRecordsComeBackWholeAndInOrderAndOnlyTheOnesLeftOutAreRemoved() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        _ = life.restored([Self.p0, Self.p1])
        let whole = [Self.message(Self.p0, 1), Self.message(Self.p1, 1), Self.message(Self.p0, 2)]
        #expect(life.admit(whole).map { "\($0.partition):\($0.offset)" } == ["0:1", "1:1", "0:2"])
        #expect(life.revoked([Self.p1]) == [Self.p1])
        // A revoked partition's record between two admitted ones, one seen already, and one last.
        let mixed = [Self.message(Self.p0, 3), Self.message(Self.p1, 2), Self.message(Self.p0, 2), Self.message(Self.p0, 4), Self.message(Self.p1, 3)]
        #expect(life.admit(mixed).map { "\($0.partition):\($0.offset)" } == ["0:3", "0:4"])
        #expect(life.admit([]).isEmpty)
    }

    @Test func recordsFetchedAgainAfterTheyWereHeldAreAdmittedOnce() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0])
        #expect(life.admit([Self.message(Self.p0, 5), Self.message(Self.p0, 6)]).isEmpty)
        #expect(life.restored([Self.p0]).map(\.offset) == [5, 6])
        // Resumed from the committed offset: 5 and 6 come again, then 7.
        #expect(life.admit([Self.message(Self.p0, 5), Self.message(Self.p0, 6), Self.message(Self.p0, 7)]).map(\.offset) == [7])
    }

    @Test func aReassignedPartitionStartsAfresh() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0])
        _ = life.restored([Self.p0])
        _ = life.admit([Self.message(Self.p0, 9)])
        #expect(life.revoked([Self.p0]) == [Self.p0])
        life.assigned([Self.p0])
        _ = life.restored([Self.p0])
        #expect(life.admit([Self.message(Self.p0, 3)]).map(\.offset) == [3])
    }

    @Test func aPartitionAssignedAgainWithoutARevokeStartsItsRecordsAfresh() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0])
        #expect(life.admit([Self.message(Self.p0, 9)]).isEmpty)
        life.assigned([Self.p0])
        #expect(life.restored([Self.p0]).isEmpty)
        #expect(life.admit([Self.message(Self.p0, 3)]).map(\.offset) == [3])
    }

    @Test func recordsOfAPartitionNoLongerOwnedAreDropped() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0])
        _ = life.restored([Self.p0])
        #expect(life.admit([Self.message(Self.p1, 0), Self.message(Self.p0, 1)]).map(\.partition) == [0])
    }

    @Test func theThrottlePausesActivePartitionsThatHaveFetchedAndResumesThemWhenItLetsGo() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        _ = life.restored([Self.p0, Self.p1])
        _ = life.admit([Self.message(Self.p0, 0), Self.message(Self.p1, 0)])
        #expect(life.reconcile(throttled: false) == ([], []))
        let paused = life.reconcile(throttled: true)
        #expect(paused.pause == [Self.p0, Self.p1] && paused.resume.isEmpty)
        #expect(life.reconcile(throttled: true) == ([], []))
        let resumed = life.reconcile(throttled: false)
        #expect(resumed.resume == [Self.p0, Self.p1] && resumed.pause.isEmpty)
    }

    @Test func theThrottleLeavesAPartitionAloneUntilItsFirstRecordArrives() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        _ = life.restored([Self.p0, Self.p1])
        _ = life.admit([Self.message(Self.p0, 0)])
        #expect(life.reconcile(throttled: true) == ([Self.p0], []))
        // p1's first record arrives while the throttle holds: it is paused on the next turn.
        #expect(life.admit([Self.message(Self.p1, 0)]).map(\.partition) == [1])
        #expect(life.reconcile(throttled: true) == ([Self.p1], []))
        #expect(life.reconcile(throttled: false) == ([], [Self.p0, Self.p1]))
    }

    @Test func aRestoringPartitionStaysPausedWhenTheThrottleLetsGo() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1])
        _ = life.restored([Self.p0])
        _ = life.admit([Self.message(Self.p0, 0), Self.message(Self.p1, 0)])
        _ = life.reconcile(throttled: true)
        let change = life.reconcile(throttled: false)
        #expect(change.resume == [Self.p0] && change.pause.isEmpty)
        #expect(life.paused == [Self.p1])
    }

    @Test func aRevokedPartitionIsForgottenWithItsHeldRecordsAndResumedIfAnyOfItsRecordsArrived() {
        var life = PartitionLifecycle()
        life.assigned([Self.p0, Self.p1, Self.p2])
        _ = life.admit([Self.message(Self.p0, 1), Self.message(Self.p2, 1)])
        #expect(life.reconcile(throttled: false) == ([Self.p0, Self.p2], []))
        _ = life.restored([Self.p2])
        #expect(life.reconcile(throttled: false) == ([], [Self.p2]))
        // p0 is paused; p2 was resumed, but librdkafka may have dropped that resume: both are
        // resumed now. p1 never fetched, so never paused: left alone.
        #expect(life.revoked([Self.p0, Self.p1, Self.p2]) == [Self.p0, Self.p2])
        #expect(life.owned.isEmpty && life.paused.isEmpty)
        life.assigned([Self.p0])
        #expect(life.restored([Self.p0]).isEmpty)
        #expect(life.reconcile(throttled: false) == ([], []))
    }
}
