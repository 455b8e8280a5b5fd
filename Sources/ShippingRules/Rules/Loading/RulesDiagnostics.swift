/// The errors and warnings of one file, collected as the loader goes so that a run reports every
/// independent error at once, as a compiler does, instead of stopping at the first. The loader
/// reads each independent part (a top-level section, a list entry, an unknown key) through
/// `attempt`: an error there is recorded and the loader goes on with the next part.
final class RulesDiagnostics {
    private(set) var listed: [RulesError] = []
    private(set) var omitted = 0
    /// Position and message of each error recorded: a node reached twice through an alias is reported once.
    private var seen: Set<String> = []
    /// Values that load but are probably not what the merchant meant; `rules check` prints them.
    private(set) var warnings: [RulesWarning] = []

    var hasErrors: Bool { !listed.isEmpty }

    func record(_ error: RulesError) {
        for e in error.errors where !e.followsEarlier {
            guard seen.insert("\(e.mark?.line ?? 0):\(e.mark?.column ?? 0) \(e.message)").inserted else { continue }
            if listed.count < RulesError.reportLimit { listed.append(e) } else { omitted += 1 }
        }
        omitted += error.omitted
    }

    func warn(_ warning: RulesWarning) { warnings.append(warning) }

    /// `body`'s value, or nil after recording the error it threw.
    func attempt<T>(_ body: () throws(RulesError) -> T) -> T? {
        do { return try body() } catch {
            record(error)
            return nil
        }
    }

    /// Every error recorded, in file order, as one error; nil when there is none.
    var failure: RulesError? {
        let sorted = listed.enumerated().sorted { a, b in
            (a.element.mark?.line ?? 0, a.element.mark?.column ?? 0, a.offset) < (b.element.mark?.line ?? 0, b.element.mark?.column ?? 0, b.offset)
        }.map(\.element)
        return RulesError(all: sorted, omitted: omitted)
    }
}
