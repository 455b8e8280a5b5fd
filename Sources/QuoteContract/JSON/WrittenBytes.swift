extension Array where Element == UInt8 {
    /// The bytes `body` writes in place into room for `capacity` of them, answering how many it
    /// wrote (at most `capacity`).
    ///
    /// Through `append(addingCapacity:initializingWith:)`, not `init(unsafeUninitializedCapacity:)`:
    /// that initializer allocates through a standard-library function that is not specialized, which
    /// looks up the array storage's generic metadata at run time on every call (some 360
    /// instructions, a twentieth of encoding a reply); this path allocates through code specialized here.
    @inline(__always)
    static func written(capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(addingCapacity: capacity) { out in
            out.withUnsafeMutableBufferPointer { buffer, initialized in initialized = body(buffer) }
        }
        return bytes
    }
}
