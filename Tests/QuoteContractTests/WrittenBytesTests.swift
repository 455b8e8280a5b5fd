import Testing
@testable import QuoteContract

@Suite("Byte arrays written in place")
struct WrittenBytesTests {
    /// What `body` saw (the room it was given) and the array made, for `count` bytes written of `capacity`.
    private func write(_ count: Int, of capacity: Int) -> (room: Int, bytes: [UInt8]) {
        var room = -1
        let bytes = [UInt8].written(capacity: capacity) { buffer in
            room = buffer.count
            for k in 0..<count { buffer[k] = UInt8(truncatingIfNeeded: k &* 7 &+ 3) }
            return count
        }
        return (room, bytes)
    }

    @Test("the array holds exactly the bytes written, from the first, whatever part of the room they fill")
    func exactlyTheBytesWritten() {
        for (count, capacity) in [(3, 16), (16, 16), (0, 16), (1, 1), (0, 0), (94, 128), (1_500, 4_096)] {
            let (room, bytes) = write(count, of: capacity)
            #expect(room == capacity, "\(count) of \(capacity): the whole room is handed over")
            #expect(bytes == (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }, "\(count) of \(capacity)")
        }
    }

    @Test("the state record and a reply are the bytes their writers put down")
    func theWritersUseIt() {
        #expect(String(decoding: SessionState(sequence: 12, sourceOffset: 3_456, lastSeenMs: -1).encode(), as: UTF8.self)
                == #"{"sequence":12,"offset":3456,"seen_ms":-1}"#)
        let long = String(repeating: "x", count: 5_000)   // past the 4 KiB written in place: the writer's own buffer
        let bytes = JSONWriter.encodeArray(capacity: 4_096) { w in
            w.beginObject()
            w.field("a", long)
            w.endObject()
        }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":""# + long + #""}"#)
        #expect(JSONWriter.encodeArray(capacity: 4_096) { w in w.beginArray(); w.endArray() } == Array("[]".utf8))
    }
}
