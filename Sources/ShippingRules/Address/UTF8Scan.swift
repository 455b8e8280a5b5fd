extension String {
    /// Whether every UTF-8 byte satisfies `test`. The bytes are read in place where the string
    /// has them contiguously (native and small strings: nearly all): iterating `utf8` as a
    /// sequence costs several times as much per byte, and the quoting path asks this of each
    /// address field more than once.
    @inline(__always)
    func allUTF8(_ test: (UInt8) -> Bool) -> Bool {
        if let answer = utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(test) }) { return answer }
        return utf8.allSatisfy(test)
    }

    /// Whether some UTF-8 byte satisfies `test`, read in place as `allUTF8` reads them.
    @inline(__always)
    func anyUTF8(_ test: (UInt8) -> Bool) -> Bool {
        if let answer = utf8.withContiguousStorageIfAvailable({ $0.contains(where: test) }) { return answer }
        return utf8.contains(where: test)
    }
}
