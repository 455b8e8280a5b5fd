import ShippingRules

extension AddressChangeEvent {
    /// The event as the contract's JSON, members in the contract's order, absent optionals left out,
    /// amounts as decimal strings with the currency's minor digits, times in UTC to the millisecond.
    public func encode() -> [UInt8] {
        var w = JSONWriter(capacity: 512 + 160 * (cart.items.count + cart.discounts.count))
        w.beginObject()
        w.field("version", Int64(version))
        if let eventID { w.field("event_id", eventID) }
        w.field("session_id", sessionID)
        w.field("sequence", sequence)
        if let merchant { w.field("merchant", merchant) }
        w.field("payment_method_type", paymentMethodType)
        w.field("trigger", trigger.rawValue)
        w.field("currency", currency.code)
        w.key("shipping_address")
        w.beginObject()
        if let city = shippingAddress.city { w.field("city", city) }
        if let state = shippingAddress.state { w.field("state", state) }
        if let postalCode = shippingAddress.postalCode { w.field("postal_code", postalCode) }
        if let countryCode = shippingAddress.countryCode { w.field("country_code", countryCode) }
        w.endObject()
        w.key("cart")
        w.beginObject()
        w.key("items")
        w.beginArray()
        for item in cart.items {
            w.beginObject()
            w.field("id", item.id)
            w.field("label", item.label)
            w.field("quantity", Int64(item.quantity))
            w.key("unit_amount")
            w.amount(item.unitAmount)
            if let taxCategory = item.taxCategory { w.field("tax_category", taxCategory) }
            if let weight = item.weightGrams { w.field("weight_grams", Int64(weight)) }
            if let shippingClass = item.shippingClass { w.field("shipping_class", shippingClass) }
            if let size = item.dimensions {
                w.key("dimensions_mm")
                w.beginObject()
                w.field("length", Int64(size.length))
                w.field("width", Int64(size.width))
                w.field("height", Int64(size.height))
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        w.key("discounts")
        w.beginArray()
        for discount in cart.discounts {
            w.beginObject()
            w.field("id", discount.id)
            w.field("label", discount.label)
            w.key("amount")
            w.amount(discount.amount)
            w.endObject()
        }
        w.endArray()
        if let subtotal = cart.subtotal {
            w.key("subtotal")
            w.amount(subtotal)
        }
        w.endObject()
        if let selectedShippingMethodID { w.field("selected_shipping_method_id", selectedShippingMethodID) }
        w.field("occurred_at", RFC3339.format(occurredAt))
        if let replyBy { w.field("reply_by", RFC3339.format(replyBy)) }
        w.endObject()
        return w.bytes
    }
}
