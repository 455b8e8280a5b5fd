/// Finds what `rules check` warns about in a loaded rule set: postal rules shortened codes never
/// meet, street-level codes, serviceability rules earlier ones always answer, methods and tax
/// layers nobody reaches, methods the sheet would show twice, tax charged twice.
struct RulesLint {
    let rules: RuleSet

    /// The lint's warnings together with `loaded` (those the loader found reading values), in file order.
    func warnings(adding loaded: [RulesWarning] = []) -> [RulesWarning] {
        var found = loaded
        postalWarnings(into: &found)
        let refused = serviceabilityWarnings(into: &found)
        methodWarnings(refused: refused, into: &found)
        taxWarnings(refused: refused, into: &found)
        return found.sorted { ($0.mark.line, $0.mark.column, $0.message) < ($1.mark.line, $1.mark.column, $1.message) }
    }

    private func warn(_ kind: RulesWarning.Kind, _ mark: SourceMark, _ field: String, _ message: String) -> RulesWarning {
        RulesWarning(kind: kind, file: rules.fileName, mark: mark, field: field, message: message)
    }

    // MARK: Postal codes

    private func postalWarnings(into found: inout [RulesWarning]) {
        var seen: Set<String> = []
        let zones = rules.zones.values.sorted { ($0.mark.line, $0.mark.column) < ($1.mark.line, $1.mark.column) } + rules.zoneIndex.zones
        for zone in zones where seen.insert(zone.field).inserted {
            let countries = zone.countries ?? []
            for (list, key) in [(zone.postalCodes ?? [], "postal_codes"), (zone.excludePostalCodes, "exclude_postal_codes")] {
                check(list, countries: countries, mark: zone.mark, field: zone.field.isEmpty ? key : "\(zone.field).\(key)", into: &found)
            }
        }
        for rule in rules.serviceability {
            var countries: Set<String> = []
            for case .countryIn(let list) in rule.conditions { countries.formUnion(list.codes) }
            for condition in rule.conditions {
                switch condition {
                case .postalCodeMatching(let list):
                    check(list, countries: countries, mark: rule.mark, field: "serviceability[\(rule.index)].when.postal_code_matching", into: &found)
                case .postalCodeNotMatching(let list):
                    for country in countries.sorted() where ShortenedPostcodes.maxLength[country] != nil {
                        let sample = ShortenedPostcodes.example(country)
                        if !list.contains(where: { $0.matches(normalized: sample, raw: sample) }) {
                            found.append(warn(.shortenedPostcode, rule.mark, "serviceability[\(rule.index)].when.postal_code_not_matching",
                                              "a shortened \(country) postcode like \(sample) matches none of these patterns, so this rule refuses "
                                              + "every Apple Pay address in \(country) (the wallet sends only the first part before payment)"))
                        }
                    }
                default: break
                }
            }
        }
    }

    private func check(_ patterns: [PostalPattern], countries: Set<String>, mark: SourceMark, field: String, into found: inout [RulesWarning]) {
        for pattern in patterns {
            for country in countries.sorted() {
                if let problem = ShortenedPostcodes.problem(pattern, country: country) {
                    found.append(warn(.shortenedPostcode, mark, field, problem))
                }
            }
            if countries.contains("US"), case .exact(let code) = pattern, code.count == 9 {
                found.append(warn(.streetLevel, mark, field, "\"\(pattern)\" is a ZIP+4, which names a street block; wallets share the "
                                  + "5-digit ZIP before payment, so match \"\(code.prefix(5))\" instead"))
            }
        }
    }

    // MARK: Serviceability

    /// Warns about rules that never answer, and returns the countries refused outright
    /// (by rules whose only conditions are on the country).
    private func serviceabilityWarnings(into found: inout [RulesWarning]) -> CountryCover {
        var refused = CountryCover.none
        var earlier: [(index: Int, conditions: Set<String>)] = []
        for rule in rules.serviceability {
            let field = "serviceability[\(rule.index)]"
            let cover = Self.cover(rule.conditions)
            let signature = Set(rule.conditions.map(\.signature))
            if let cover, cover.isEmpty {
                found.append(warn(.unreachableRule, rule.mark, field, "never applies: its country conditions exclude each other"))
            } else if let cover, cover.isSubset(of: refused) {
                found.append(warn(.unreachableRule, rule.mark, field,
                                  "never applies: earlier rules already refuse every address in \(cover.text)"))
            } else if let first = earlier.first(where: { $0.conditions.isSubset(of: signature) }) {
                found.append(warn(.unreachableRule, rule.mark, field,
                                  "never applies: serviceability[\(first.index)] holds whenever this rule does and answers first"))
            }
            earlier.append((rule.index, signature))
            if rule.conditions.allSatisfy(\.isOnCountry), let cover { refused = refused.union(cover) }
        }
        return refused
    }

    /// The countries a set of conditions can hold for; nil when no condition names a country
    /// (the rule may then hold for an address without one).
    static func cover(_ conditions: [AddressCondition]) -> CountryCover? {
        var cover: CountryCover?
        for condition in conditions {
            let c: CountryCover
            switch condition {
            case .countryIn(let list): c = .only(list.codes)
            case .countryNotIn(let list): c = .allBut(list.codes)
            case .inZone(let zone): guard let set = zone.countries else { continue }; c = .only(set)
            default: continue
            }
            cover = cover.map { $0.intersection(c) } ?? c
        }
        return cover
    }

    private static func cover(_ zone: Zone) -> CountryCover { zone.countries.map(CountryCover.only) ?? .all }

    // MARK: Methods

    private func methodWarnings(refused: CountryCover, into found: inout [RulesWarning]) {
        for (i, method) in rules.methods.enumerated() {
            let cover = method.zones.map { $0.reduce(CountryCover.none) { $0.union(Self.cover($1)) } } ?? .all
            if !cover.isEmpty, cover.isSubset(of: refused) {
                found.append(warn(.unreachableMethod, method.mark, method.field,
                                  "method \(method.id) is never offered: serviceability refuses every address in \(cover.text) first"))
            }
            let cutoff = method.cutoffMinutes ?? rules.warehouse?.cutoffMinutes
            for case .orderBefore(let limit) in method.conditions {
                if let cutoff, limit > cutoff {
                    found.append(warn(.orderBeforeAfterCutoff, method.mark, method.field,
                                      "method \(method.id) is offered until \(MethodCondition.clock(limit)) but the \(method.cutoffMinutes == nil ? "warehouse's " : "method's ")"
                                      + "cutoff is \(MethodCondition.clock(cutoff)): orders in between ship the next business day; "
                                      + "set order_before to \(MethodCondition.clock(cutoff)) or earlier"))
                }
            }
            if let zones = method.zones {
                var numbers: Set<Int> = []
                for zone in zones where !numbers.insert(zone.number).inserted {
                    found.append(warn(.overlappingMethods, method.mark, method.field, "method \(method.id) lists zone \(zone.name) twice"))
                }
            }
            for other in rules.methods[..<i] where other.label == method.label && Self.mayOverlap(other.zones, method.zones) {
                found.append(warn(.overlappingMethods, method.mark, method.field,
                                  "methods \(other.id) and \(method.id) are both labelled \"\(method.label)\" and can be offered to the same "
                                  + "addresses; the sheet would show two options the customer cannot tell apart"))
            }
        }
    }

    /// Whether two zone lists (nil: everywhere) can hold one address, judged on countries and states.
    static func mayOverlap(_ a: [Zone]?, _ b: [Zone]?) -> Bool {
        guard let a, let b else { return true }
        return a.contains { x in b.contains { y in mayOverlap(x, y) } }
    }

    static func mayOverlap(_ x: Zone, _ y: Zone) -> Bool {
        if let cx = x.countries, let cy = y.countries, cx.isDisjoint(with: cy) { return false }
        if let sx = x.states, let sy = y.states, sx.isDisjoint(with: sy) { return false }
        if let sx = x.states, sx.isSubset(of: y.excludeStates) { return false }
        if let sy = y.states, sy.isSubset(of: x.excludeStates) { return false }
        return true
    }

    // MARK: Tax

    private func taxWarnings(refused: CountryCover, into found: inout [RulesWarning]) {
        let layers = rules.tax.layers
        for (i, layer) in layers.enumerated() {
            let cover = Self.cover(layer.zone)
            if !cover.isEmpty, cover.isSubset(of: refused) {
                found.append(warn(.unreachableTaxLayer, layer.mark, layer.field,
                                  "tax layer \(layer.id) never applies: serviceability refuses every address in \(cover.text) first"))
            }
            for other in layers[..<i] {
                if other.zone.signature == layer.zone.signature {
                    found.append(warn(.overlappingTaxLayers, layer.mark, layer.field,
                                      "tax layers \(other.id) and \(layer.id) have the same zone, so every address there pays both; "
                                      + "merge them unless two jurisdictions really tax the same area"))
                } else if other.includedInPrices != layer.includedInPrices, Self.mayOverlap(other.zone, layer.zone) {
                    found.append(warn(.overlappingTaxLayers, layer.mark, layer.field,
                                      "tax layers \(other.id) and \(layer.id) can apply to the same address, one contained in the prices "
                                      + "and one added to them; prices are then read as holding only the contained one"))
                }
            }
        }
    }
}

extension AddressCondition {
    /// A canonical text of the condition, to compare rules.
    var signature: String {
        func list(_ s: Set<String>) -> String { s.sorted().joined(separator: ",") }
        switch self {
        case .countryIn(let s): return "country_in \(list(s.codes))"
        case .countryNotIn(let s): return "country_not_in \(list(s.codes))"
        case .stateIn(let s): return "state_in \(list(s.codes))"
        case .stateNotIn(let s): return "state_not_in \(list(s.codes))"
        case .cityIn(let s): return "city_in \(list(s))"
        case .cityNotIn(let s): return "city_not_in \(list(s))"
        case .postalCodeMatching(let p): return "postal_code_matching \(p.map(\.description).joined(separator: ","))"
        case .postalCodeNotMatching(let p): return "postal_code_not_matching \(p.map(\.description).joined(separator: ","))"
        case .postalCodeNotValidForCountry: return "postal_code_not_valid_for_country"
        case .inZone(let z): return "zone \(z.signature)"
        case .notInZone(let z): return "not_in_zone \(z.signature)"
        case .missing(let f): return "missing \(f.map(\.rawValue).sorted().joined(separator: ","))"
        }
    }

    var isOnCountry: Bool {
        switch self {
        case .countryIn, .countryNotIn: return true
        default: return false
        }
    }
}

extension Zone {
    /// A canonical text of what the zone holds (not its id), to find two zones that are one.
    var signature: String {
        func list(_ s: Set<String>?) -> String { s.map { $0.sorted().joined(separator: ",") } ?? "*" }
        func patterns(_ p: [PostalPattern]?) -> String { p.map { $0.map(\.description).joined(separator: ",") } ?? "*" }
        return "c=\(list(countries)) s=\(list(states)) -s=\(list(excludeStates)) ci=\(list(cities)) -ci=\(list(excludeCities)) "
            + "p=\(patterns(postalCodes)) -p=\(patterns(excludePostalCodes))"
    }
}
