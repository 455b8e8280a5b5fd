import ShippingRules

// The merchants' rules are what a production worker quotes with.
extension RuleLibrary: QuoteEngine {}
extension RuleSet: QuoteEngine {}
