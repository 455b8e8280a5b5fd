extension Array where Element == UInt8 {
    /// The bytes `body` writes in place into room for `capacity` of them: it writes from the
    /// buffer's first byte on and answers how many it wrote, at most `capacity` (more traps).
    ///
    /// Through `append(addingCapacity:initializingWith:)`, not `init(unsafeUninitializedCapacity:)`:
    /// that initializer allocates through a standard-library function that is not specialized, which
    /// looks up the array storage's generic metadata at run time on every call (some 360
    /// instructions, a twentieth of encoding a reply); this path allocates through code specialized
    /// here. It came with Swift 6.3; an older compiler builds the initializer's way.
    @inline(__always)
    static func written(capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> [UInt8] {
        #if compiler(>=6.3)
        var bytes: [UInt8] = []
        bytes.append(addingCapacity: capacity) { out in
            out.withUnsafeMutableBufferPointer { buffer, initialized in initialized = body(buffer) }
        }
        return bytes
        #else
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in initialized = body(buffer) }
        #endif
    }
}
