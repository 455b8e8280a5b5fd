/// Objects a compiled rule set keeps for its lifetime and asks on every quote, asked without a
/// retain and a release around each ask: read out of a list to be asked, an object was retained
/// and released every time (an atomic count, shared between threads).
///
/// It owns its objects (`objects`) and keeps an unretained reference to each beside them: both are
/// made together, immutable, and copied together, so no reference outlives its object.
struct HeldObjects<Object: AnyObject & Sendable>: Sendable {
    let objects: [Object]
    private let references: [Unmanaged<Object>]

    init(_ objects: [Object]) {
        self.objects = objects
        references = objects.map { Unmanaged.passUnretained($0) }
    }

    var indices: Range<Int> { references.indices }

    /// `body`'s answer for the object at `index`, handed over unretained; it must not keep the object.
    @inline(__always)
    func ask<Answer>(_ index: Int, _ body: (Object) -> Answer) -> Answer {
        references[index]._withUnsafeGuaranteedRef(body)
    }

    /// `body`'s answer with the references in one buffer, for a caller that asks many objects (the
    /// zone index asks its matchers): each ask is then a pointer read, without the list's bounds check.
    @inline(__always)
    func withBuffer<Answer>(_ body: (Buffer) -> Answer) -> Answer {
        references.withUnsafeBufferPointer { body(Buffer(references: $0)) }
    }

    /// The references of a `HeldObjects`, valid inside `withBuffer`.
    struct Buffer {
        fileprivate let references: UnsafeBufferPointer<Unmanaged<Object>>

        @inline(__always)
        func ask<Answer>(_ index: Int, _ body: (Object) -> Answer) -> Answer {
            references[index]._withUnsafeGuaranteedRef(body)
        }
    }
}
