import Foundation
import Kafka
@testable import QuoteWorker
import Synchronization
import Testing

/// The delivery pipeline against a sink that records what it is given and reports when told.
@Suite struct DeliveryPipelineTests {
    /// A producer stand-in: holds each record's completion until the test delivers or fails it.
    final class RecordingSink: RecordSink {
        var room = Int.max
        var refuseWith: KafkaError?
        private(set) var sent: [KafkaOutgoingMessage] = []
        private var completions: [(KafkaOutgoingMessage, @Sendable (KafkaDeliveryReport) -> Void)] = []

        func sendIfRoom(_ message: KafkaOutgoingMessage,
                        completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) throws(KafkaError) -> Bool {
            if let refuseWith { throw refuseWith }
            guard completions.count < room else { return false }
            sent.append(message)
            completions.append((message, completion))
            return true
        }

        var queueLength: Int { completions.count }
        var sentValues: [String] { sent.map { String(decoding: $0.value, as: UTF8.self) } }

        /// Reports the oldest queued record (as librdkafka does, in order per partition).
        func report(_ report: KafkaDeliveryReport = .delivered(partition: 0, offset: 0)) {
            let (_, completion) = completions.removeFirst()
            completion(report)
        }
    }

    static let tp = KafkaTopicPartition("in", 0)
    static let other = KafkaTopicPartition("in", 1)
    static let tooLarge = KafkaError(code: 10, name: "MSG_SIZE_TOO_LARGE", message: "too large")
    static let timedOut = KafkaError(code: -192, name: "_MSG_TIMED_OUT", message: "timed out")

    static func record(_ text: String) -> KafkaOutgoingMessage { KafkaOutgoingMessage(topic: "out", key: nil, value: Array(text.utf8)) }
    static func chain(_ texts: String...) -> DeliveryChain { DeliveryChain(texts.map(record)) }

    let sink = RecordingSink()
    let wakes = WakeCount()

    final class WakeCount: Sendable {
        let count = Atomic<Int>(0)
    }

    func pipeline(observer: DeliveryPipeline.Observer = .init()) -> DeliveryPipeline {
        let wakes = self.wakes
        return DeliveryPipeline(sink: sink, observer: observer, wake: { wakes.count.add(1, ordering: .relaxed) })
    }

    @Test func theNextRecordOfAChainIsProducedOnlyAfterTheFirstIsDeliveredAndTheLoopPumps() {
        let p = pipeline()
        p.submit([Self.chain("state", "reply")], source: Self.tp, offset: 5)
        #expect(sink.sentValues == ["state"])
        sink.report()
        #expect(wakes.count.load(ordering: .relaxed) == 1)
        #expect(sink.sentValues == ["state"])  // the report only recorded the outcome
        p.pump(owned: { _ in true })
        #expect(sink.sentValues == ["state", "reply"])
        #expect(p.committable([Self.tp]).isEmpty)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 6])
    }

    @Test func offsetsAreCommittableInOrderOnlyUpToTheFirstUnfinishedRecord() {
        let p = pipeline()
        p.submit([Self.chain("a")], source: Self.tp, offset: 1)
        p.submit([], source: Self.tp, offset: 2)  // a drop: finished at once
        p.submit([Self.chain("c")], source: Self.tp, offset: 3)
        #expect(p.unfinished() == 3)
        sink.report(.delivered(partition: 0, offset: 0))  // "a"
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 3])
        p.markCommitted([Self.tp: 3])
        #expect(p.committable([Self.tp]).isEmpty)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 4])
        #expect(p.unfinished() == 0)
    }

    @Test func aRecordWithTwoChainsFinishesWhenBothAreDelivered() {
        let p = pipeline()
        p.submit([Self.chain("dead letter"), Self.chain("state", "reply")], source: Self.tp, offset: 0)
        sink.report()
        sink.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]).isEmpty)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 1])
    }

    /// The worker's two producers behind one sink: the state topic's records through the state
    /// producer, the rest through the reply producer; an offset still waits for both.
    @Test func stateRecordsGoThroughTheStateProducerAndTheRestThroughTheReplyProducer() {
        let state = RecordingSink()
        let routes = RecordRoutes(replies: sink, state: state, stateTopic: "state")
        let p = DeliveryPipeline(sink: routes)
        let stateRecord = KafkaOutgoingMessage(topic: "state", key: Array("s".utf8), value: Array("entry".utf8))
        let tombstone = KafkaOutgoingMessage.tombstone(topic: "state", key: Array("gone".utf8))
        p.submit([DeliveryChain([stateRecord]), Self.chain("reply")], source: Self.tp, offset: 0)
        p.sendUntracked(tombstone)
        #expect(state.sent.map(\.key) == [Array("s".utf8), Array("gone".utf8)])
        #expect(sink.sentValues == ["reply"])
        #expect(routes.queueLength == 3)
        #expect(p.waiting == 3)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]).isEmpty, "the state record is not delivered yet")
        state.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 1])
    }

    @Test func recordsThatFindNoRoomWaitInOrderAndCountAsWaiting() {
        let p = pipeline()
        sink.room = 1
        p.submit([Self.chain("1")], source: Self.tp, offset: 0)
        p.submit([Self.chain("2")], source: Self.tp, offset: 1)
        p.submit([Self.chain("3")], source: Self.tp, offset: 2)
        #expect(sink.sentValues == ["1"])
        #expect(p.waiting == 3)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(sink.sentValues == ["1", "2"])
        sink.room = 10
        p.pump(owned: { _ in true })
        #expect(sink.sentValues == ["1", "2", "3"])
        #expect(p.waiting == 2)
    }

    @Test func aDeliveryThatOnlyFinishesAnOffsetDoesNotWakeTheLoop() {
        let p = pipeline()
        p.submit([Self.chain("state"), Self.chain("reply")], source: Self.tp, offset: 4)
        sink.report()
        sink.report()
        #expect(wakes.count.load(ordering: .relaxed) == 0)
        p.pump(owned: { _ in true })  // the loop's next turn sees them
        #expect(p.committable([Self.tp]) == [Self.tp: 5])
    }

    @Test func aFailedDeliveryWakesTheLoop() {
        let p = pipeline()
        p.submit([Self.chain("reply")], source: Self.tp, offset: 0)
        sink.report(.failed(Self.timedOut))
        #expect(wakes.count.load(ordering: .relaxed) == 1)
    }

    @Test func whileRecordsWaitForRoomEveryDeliveryWakesTheLoopAndAfterwardsNoneDoes() {
        let p = pipeline()
        sink.room = 1
        p.submit([Self.chain("1")], source: Self.tp, offset: 0)
        p.submit([Self.chain("2")], source: Self.tp, offset: 1)
        sink.report()  // "1": room for "2"
        #expect(wakes.count.load(ordering: .relaxed) == 1)
        p.pump(owned: { _ in true })
        #expect(sink.sentValues == ["1", "2"])
        sink.report()  // "2": nothing waits any more
        #expect(wakes.count.load(ordering: .relaxed) == 1)
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 2])
    }

    @Test func aFailedDeliveryIsProducedAgainOnTheNextPumpAndReported() {
        var observer = DeliveryPipeline.Observer()
        let retried = Mutex<[String]>([])
        observer.retried = { record, error in retried.withLock { $0.append("\(String(decoding: record.value, as: UTF8.self)) \(error.name)") } }
        let p = pipeline(observer: observer)
        p.submit([Self.chain("reply")], source: Self.tp, offset: 0)
        sink.report(.failed(Self.timedOut))
        p.pump(owned: { _ in true })
        #expect(sink.sentValues == ["reply", "reply"])
        #expect(retried.withLock { $0 } == ["reply _MSG_TIMED_OUT"])
        sink.report()
        p.pump(owned: { _ in true })
        #expect(p.committable([Self.tp]) == [Self.tp: 1])
    }

    @Test func aRecordTheBrokerRefusesForGoodIsAbandonedAndItsOffsetFinished() {
        var observer = DeliveryPipeline.Observer()
        let abandoned = Mutex<[Int64]>([])
        observer.abandoned = { _, _, _, offset in abandoned.withLock { $0.append(offset) } }
        let p = pipeline(observer: observer)
        p.submit([Self.chain("state", "reply")], source: Self.tp, offset: 8)
        sink.report(.failed(Self.tooLarge))
        p.pump(owned: { _ in true })
        #expect(sink.sentValues == ["state"])  // the rest of its chain is let go too
        #expect(abandoned.withLock { $0 } == [8])
        #expect(p.committable([Self.tp]) == [Self.tp: 9])
    }

    @Test func aRecordRefusedAtOnceForGoodIsAbandonedWithoutBeingQueued() {
        let p = pipeline()
        sink.refuseWith = Self.tooLarge
        p.submit([Self.chain("huge")], source: Self.tp, offset: 0)
        #expect(sink.sent.isEmpty)
        #expect(p.committable([Self.tp]) == [Self.tp: 1])
    }

    @Test func aRevokedPartitionsRetriesAndLateReportsAreForgotten() {
        let p = pipeline()
        p.submit([Self.chain("mine")], source: Self.tp, offset: 0)
        p.submit([Self.chain("theirs")], source: Self.other, offset: 0)
        sink.report(.failed(Self.timedOut))
        p.forget([Self.tp])
        sink.report()
        p.pump(owned: { $0 != Self.tp })
        #expect(sink.sentValues == ["mine", "theirs"])  // not produced again
        #expect(p.committable([Self.tp, Self.other]) == [Self.other: 1])
        #expect(p.unfinished() == 0)
    }

    @Test func theEndToEndTimeIsObservedWhenAReplysChainIsDelivered() {
        var observer = DeliveryPipeline.Observer()
        let seen = Mutex<[Date]>([])
        observer.answerDelivered = { date in seen.withLock { $0.append(date) } }
        let p = pipeline(observer: observer)
        let occurred = Date(timeIntervalSince1970: 1_000)
        p.submit([DeliveryChain([Self.record("state"), Self.record("reply")], answersEventOf: occurred)], source: Self.tp, offset: 0)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(seen.withLock { $0 }.isEmpty)
        sink.report()
        p.pump(owned: { _ in true })
        #expect(seen.withLock { $0 } == [occurred])
    }
}
