import Foundation
import ShippingRules

/// The output of docs/contract.md: the answer to one event of a session.
public struct QuoteReply: Sendable, Hashable {
    public static let currentVersion = 1

    public var version: Int { QuoteReply.currentVersion }
    public let sessionID: String
    /// The sequence of the event this answers; a gateway applies only the latest.
    public let sequence: Int64
    public let eventID: String?
    public let outcome: QuoteOutcome
    /// Which rules computed the quote (`sha256:…`); nil when none did (a rejection).
    public let rulesVersion: String?
    public let computedAt: Date

    public init(sessionID: String, sequence: Int64, eventID: String? = nil, outcome: QuoteOutcome,
                rulesVersion: String? = nil, computedAt: Date) {
        self.sessionID = sessionID
        self.sequence = sequence
        self.eventID = eventID
        self.outcome = outcome
        self.rulesVersion = rulesVersion
        self.computedAt = computedAt
    }

    /// The `rejected` reply for a refused event, or nil when its session or sequence could not be read.
    public init?(rejecting rejection: EventRejection, eventID: String? = nil, computedAt: Date) {
        guard let sessionID = rejection.sessionID, let sequence = rejection.sequence else { return nil }
        self.init(sessionID: sessionID, sequence: sequence, eventID: eventID,
                  outcome: .rejected(rejection.quoteRejection), computedAt: computedAt)
    }
}
