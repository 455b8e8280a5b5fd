import ShippingRules

extension QuoteReply {
    /// The reply as the contract's JSON: members in the contract's order; `event_id` and
    /// `rules_version` are `null` when absent (a stable shape for readers), `update` is `null`
    /// for `keep` and `rejected`, `rejection` appears only for `rejected`; amounts are strings
    /// with the currency's minor digits, `computed_at` is UTC with milliseconds.
    public func encode() -> [UInt8] {
        // A reply of a few methods is under 2 KiB: written into the array returned.
        JSONWriter.encodeArray(capacity: 4096) { w in encode(into: &w) }
    }

    private func encode(into w: inout JSONWriter) {
        w.beginObject()
        w.field("version", Int64(version))
        w.field("session_id", sessionID)
        w.field("sequence", sequence)
        w.field("event_id", orNull: eventID)
        w.field("outcome", outcome.kind.rawValue)
        w.key("update")
        Self.write(outcome, into: &w)
        w.field("rules_version", orNull: rulesVersion)
        w.key("computed_at")
        let millis = RFC3339.epochMilliseconds(computedAt)
        w.rawValue(capacity: RFC3339.timestampLength + 2) { out in
            out[0] = UInt8(ascii: "\"")
            let count = RFC3339.writeTimestamp(epochMilliseconds: millis, to: out + 1)
            out[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
        w.endObject()
    }

    /// The outcome's `update` (and `rejection`), the outcome borrowed where it lies: matched as a
    /// copy, its update's lists were each retained and released once more per reply.
    private static func write(_ outcome: borrowing QuoteOutcome, into w: inout JSONWriter) {
        switch outcome {
        case .update(let update):
            w.update(update)
        case .unserviceable(let errors):
            w.update(ShippingUpdate(errors: errors))
        case .keep:
            w.null()
        case .rejected(let rejection):
            w.null()
            w.field("rejection", rejection.wireText)
        }
    }
}

extension JSONWriter {
    mutating func update(_ update: ShippingUpdate) {
        // Where each of the update's own summary items was written: a method's breakdown repeats
        // most of them (subtotal, discount, often the tax; all of them for the method shown first),
        // and an equal item is copied from there rather than formatted again.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: update.summaryItems.count) { written in
            self.update(update, written: written)
        }
    }

    private mutating func update(_ update: ShippingUpdate, written: UnsafeMutableBufferPointer<Range<Int>>) {
        beginObject()
        key("summary_items")
        summaryItems(update.summaryItems, noting: written)
        key("shipping_methods")
        beginArray()
        // Each method read where it lies: `for … in` copied every method (a retain and a release
        // of each of its texts and lists).
        update.shippingMethods.withUnsafeBufferPointer { methods in
            for i in methods.indices {
                beginObject()
                field("id", methods[i].id)
                field("label", methods[i].label)
                if let detail = methods[i].detail { field("detail", detail) }
                key("amount")
                amount(methods[i].amount)
                if let estimate = methods[i].deliveryEstimate {
                    key("delivery_estimate")
                    beginObject()
                    key("from")
                    date(estimate.from)
                    key("to")
                    date(estimate.to)
                    endObject()
                }
                key("summary_items")
                summaryItems(methods[i].summaryItems, copyingEqualItemsOf: update.summaryItems, writtenAt: UnsafeBufferPointer(written))
                endObject()
            }
        }
        endArray()
        key("errors")
        beginArray()
        for error in update.errors {
            beginObject()
            field("code", error.code)
            field("message", error.message)
            endObject()
        }
        endArray()
        endObject()
    }

    /// `"2026-10-13"`, written in place.
    mutating func date(_ date: CalendarDate) {
        guard (-719_162...2_932_896).contains(date.daysSinceEpoch) else { return string(date.description) }   // years 1…9999
        rawValue(capacity: 12) { out in
            out[0] = UInt8(ascii: "\"")
            let count = RFC3339.writeFullDate(date, to: out + 1)
            out[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
    }

    /// The list, each item's bytes (without a separating comma) noted in `written`, which holds
    /// at least as many ranges as there are items.
    mutating func summaryItems(_ items: [SummaryItem], noting written: UnsafeMutableBufferPointer<Range<Int>>) {
        beginArray()
        // By index: a `for item in` copies each item, two string references counted up and down.
        for i in items.indices { written[i] = summaryItem(id: items[i].id, label: items[i].label, amount: items[i].amount) }
        endArray()
    }

    /// The list, where an item equals the one at its place in `earlier` (whose bytes are at
    /// `writtenAt`) copying those bytes.
    mutating func summaryItems(_ items: [SummaryItem], copyingEqualItemsOf earlier: [SummaryItem],
                               writtenAt: UnsafeBufferPointer<Range<Int>>) {
        beginArray()
        for i in items.indices {
            if i < earlier.count && items[i] == earlier[i] {
                copyFragment(writtenAt[i])
            } else {
                _ = summaryItem(id: items[i].id, label: items[i].label, amount: items[i].amount)
            }
        }
        endArray()
    }

    /// One item, handed over field by field (handed over whole, each item was copied out of its
    /// list first); returns where its bytes are (after any separating comma).
    private mutating func summaryItem(id: String, label: String, amount money: Money) -> Range<Int> {
        let start = position
        if !idLabelAmountObject(id: id, label: label, letters: money.currency.codeBytes,
                                minorUnits: money.minorUnits, fractionDigits: money.currency.minorDigits) {
            beginObject()
            field("id", id)
            field("label", label)
            key("amount")
            amount(money)
            endObject()
        }
        return fragmentStart(from: start)..<position
    }
}
