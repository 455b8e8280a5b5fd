/// The countries a rule can apply to: a finite list, or every country but a finite list.
/// Lets `rules check` tell that earlier refusals cover a later rule, without enumerating countries.
struct CountryCover: Equatable, Sendable {
    var codes: Set<String>
    /// True: every country except `codes`.
    var isComplement: Bool

    static let all = CountryCover(codes: [], isComplement: true)
    static let none = CountryCover(codes: [], isComplement: false)

    static func only(_ codes: Set<String>) -> CountryCover { CountryCover(codes: codes, isComplement: false) }
    static func allBut(_ codes: Set<String>) -> CountryCover { CountryCover(codes: codes, isComplement: true) }

    var isEmpty: Bool { !isComplement && codes.isEmpty }

    func union(_ o: CountryCover) -> CountryCover {
        switch (isComplement, o.isComplement) {
        case (false, false): return .only(codes.union(o.codes))
        case (true, true): return .allBut(codes.intersection(o.codes))
        case (true, false): return .allBut(codes.subtracting(o.codes))
        case (false, true): return .allBut(o.codes.subtracting(codes))
        }
    }

    func intersection(_ o: CountryCover) -> CountryCover {
        switch (isComplement, o.isComplement) {
        case (false, false): return .only(codes.intersection(o.codes))
        case (true, true): return .allBut(codes.union(o.codes))
        case (true, false): return .only(o.codes.subtracting(codes))
        case (false, true): return .only(codes.subtracting(o.codes))
        }
    }

    func isSubset(of o: CountryCover) -> Bool {
        switch (isComplement, o.isComplement) {
        case (false, false): return codes.isSubset(of: o.codes)
        case (false, true): return codes.isDisjoint(with: o.codes)
        case (true, false): return false          // infinitely many countries are never inside a list
        case (true, true): return o.codes.isSubset(of: codes)
        }
    }

    var text: String {
        let list = codes.sorted().joined(separator: ", ")
        return isComplement ? (codes.isEmpty ? "every country" : "every country but \(list)") : list
    }
}
