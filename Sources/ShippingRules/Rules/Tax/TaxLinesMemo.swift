/// One quote's tax lines, kept by shipping charge. The cart and the layers are the quote's own,
/// so a method that charges the same shipping as an earlier one, or any shipping when no layer
/// taxes it, gets the same lines: they are computed once per quote, not once per method.
/// A trace is never served from here, so each method's steps are still written out in full.
struct TaxLinesMemo {
    /// No matched layer taxes shipping (nor apportions it to the goods): the lines ignore it.
    private let shippingIsUntaxed: Bool
    private var known: [(shipping: Int64, lines: TaxCalculation.Lines)] = []

    init(layers: [TaxLayer]) {
        shippingIsUntaxed = layers.withUnsafeBufferPointer { layers in layers.indices.allSatisfy { layers[$0].shipping == .exempt } }
    }

    /// The lines computed before for `shipping`, or nil. (A trace never asks: each method's steps
    /// are written out in full.)
    func lines(shipping: Money) -> TaxCalculation.Lines? {
        let key = shippingIsUntaxed ? 0 : shipping.minorUnits
        return known.first(where: { $0.shipping == key })?.lines
    }

    /// Keeps `lines`, computed for `shipping`, for the quote's later methods.
    mutating func remember(_ lines: TaxCalculation.Lines, shipping: Money) {
        known.append((shippingIsUntaxed ? 0 : shipping.minorUnits, lines))
    }
}
