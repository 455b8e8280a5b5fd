import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// The whole path over the embedded broker's TCP sockets: events in, replies out.
@Suite(.serialized) struct RoundTripTests {
    @Test func everySessionsLatestSequenceIsAnsweredOnceAndNothingOlderAfterIt() throws {
        let harness = try WorkerHarness()
        defer { harness.stop() }
        harness.awaitAssignment()
        let sessions = (0..<100).map { "session-\($0)" }
        // Half the sessions send all ten addresses in one burst; the other half one address a wave.
        let bursty = sessions.prefix(50)
        harness.produce(bursty.flatMap { s in (1...10).map { harness.record(harness.event(session: s, sequence: Int64($0))) } })
        for sequence in 1...10 {
            harness.produce(sessions.suffix(50).map { harness.record(harness.event(session: $0, sequence: Int64(sequence))) })
            usleep(20_000)
        }
        let metrics = harness.awaitFinished(1_000)
        #expect(metrics.eventsIn == 1_000)
        #expect(metrics.totalOutcomes + metrics.totalDrops == 1_000)
        #expect(metrics.outcomes.keys.sorted() == ["update"])
        let expectedReplies = metrics.outcomes["update"]!

        let replies = try harness.read(harness.topics.quoteReplies) { $0.count >= expectedReplies }
        #expect(replies.count == expectedReplies)
        let expected = harness.rules.quote(harness.event(session: "any", sequence: 1).quoteRequest(now: WorkerHarness.now))
        guard case .update(let expectedUpdate) = expected else { Issue.record("the example rules must quote Cupertino"); return }
        #expect(expectedUpdate.summaryItems.last?.amount.decimalString == "53.94")  // docs/contract.md's example reply

        var bySession: [String: [QuoteReply]] = [:]
        for record in replies {  // records of one session share a partition, so this is publication order
            let reply = try QuoteReply.decode(record.value)
            #expect(record.keyText == reply.sessionID)
            #expect(record.headerText(ContractHeader.contentType) == "application/json")
            #expect(record.headerText(ContractHeader.sessionID) == reply.sessionID)
            #expect(record.headerText(ContractHeader.sequence) == String(reply.sequence))
            #expect(reply.outcome == .update(expectedUpdate))
            #expect(reply.eventID == "evt-\(reply.sessionID)-\(reply.sequence)")
            #expect(reply.rulesVersion == harness.rules.version)
            bySession[reply.sessionID, default: []].append(reply)
        }
        #expect(bySession.count == 100)
        for session in sessions {
            let sequences = bySession[session, default: []].map(\.sequence)
            #expect(sequences.last == 10, "session \(session) answered \(sequences)")
            #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count,
                    "session \(session) published \(sequences): an answer older than one already published")
        }
        // Bursts conflate: the worker answered far fewer than it received.
        #expect(metrics.drops[.superseded, default: 0] > 0)
    }

    @Test func anEventOlderThanOneAlreadyAnsweredIsDroppedAsStaleAndARedeliveryAsDuplicate() throws {
        let harness = try WorkerHarness(partitions: 1)
        defer { harness.stop() }
        harness.awaitAssignment()
        harness.produce([harness.record(harness.event(session: "s", sequence: 6))])
        _ = harness.awaitFinished(1)
        harness.produce([harness.record(harness.event(session: "s", sequence: 5))])
        _ = harness.awaitFinished(2)
        harness.produce([harness.record(harness.event(session: "s", sequence: 6))])
        let metrics = harness.awaitFinished(3)
        #expect(metrics.drops == [.stale: 1, .duplicate: 1])
        #expect(metrics.outcomes == ["update": 1])
        let replies = try harness.read(harness.topics.quoteReplies, timeout: 2) { $0.count > 1 }
        #expect(try replies.map { try QuoteReply.decode($0.value).sequence } == [6])
    }

    @Test func anEventWhoseReplyByHasPassedIsDroppedAsExpired() throws {
        let harness = try WorkerHarness(partitions: 1)
        defer { harness.stop() }
        harness.awaitAssignment()
        var late = harness.event(session: "late", sequence: 1)
        late.replyBy = WorkerHarness.now.addingTimeInterval(-0.001)
        var old = harness.event(session: "old", sequence: 1)
        old.occurredAt = WorkerHarness.now.addingTimeInterval(-30)  // the default time-to-live is 30 s
        var fresh = harness.event(session: "fresh", sequence: 1)
        fresh.replyBy = WorkerHarness.now.addingTimeInterval(0.001)
        harness.produce([harness.record(late), harness.record(old), harness.record(fresh)])
        let metrics = harness.awaitFinished(3)
        #expect(metrics.drops == [.expired: 2])
        #expect(metrics.outcomes == ["update": 1])
    }

    @Test func theSheetsFirstCallIsAnsweredKeepAndTheTraceparentTravelsToTheReply() throws {
        let harness = try WorkerHarness(partitions: 1)
        defer { harness.stop() }
        harness.awaitAssignment()
        let trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        harness.produce([harness.record(harness.event(session: "open", sequence: 1, trigger: .sheetOpened),
                                        headers: [KafkaHeader(ContractHeader.traceparent, trace)])])
        let replies = try harness.read(harness.topics.quoteReplies) { !$0.isEmpty }
        let record = try #require(replies.first)
        #expect(try QuoteReply.decode(record.value).outcome == .keep)
        // The same trace, a new span (the reply's, a child of the event's).
        let replyTrace = try #require(record.headerText(ContractHeader.traceparent).flatMap(TraceContext.init))
        #expect(replyTrace.traceID == "4bf92f3577b34da6a3ce929d0e0e4736" && replyTrace.flagsText == "01")
        #expect(replyTrace.spanIDText != "00f067aa0ba902b7")
    }

    @Test func anAddressTheMerchantCannotServeIsAnsweredUnserviceable() throws {
        let harness = try WorkerHarness(partitions: 1)
        defer { harness.stop() }
        harness.awaitAssignment()
        harness.produce([harness.record(harness.event(session: "ca", sequence: 1, address: .toronto))])
        let replies = try harness.read(harness.topics.quoteReplies) { !$0.isEmpty }
        let reply = try QuoteReply.decode(try #require(replies.first).value)
        guard case .unserviceable(let errors) = reply.outcome else { Issue.record("got \(reply.outcome)"); return }
        #expect(errors.map(\.code) == ["COUNTRY_NOT_SUPPORTED"])
    }
}
