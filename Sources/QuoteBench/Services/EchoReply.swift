import QuoteContract

/// The echo worker's whole "computation": the sequence read from the event bytes by a byte scan
/// (no JSON model), and a tiny reply carrying the contract's headers.
enum EchoReply {
    private static let marker = Array("\"sequence\"".utf8)

    /// The digits after `"sequence"`, `:` and optional spaces, or nil. Assumes the field is
    /// written once at the top level, as every producer of the contract writes it.
    static func sequenceDigits(in value: [UInt8]) -> ArraySlice<UInt8>? {
        let m = marker.count
        guard value.count > m else { return nil }
        var i = 0
        while i + m <= value.count {
            if value[i] == marker[0] && value[i..<(i + m)].elementsEqual(marker) {
                var j = i + m
                while j < value.count, value[j] == 0x20 || value[j] == 0x3A { j += 1 }   // spaces and ':'
                let start = j
                while j < value.count, value[j] >= 0x30, value[j] <= 0x39 { j += 1 }
                return j > start ? value[start..<j] : nil
            }
            i += 1
        }
        return nil
    }

    static func headers(sessionID: [UInt8], sequence: ArraySlice<UInt8>) -> [KafkaHeaderPair] {
        [(ContractHeader.contentType, Array(ContractHeader.applicationJSON.utf8)),
         (ContractHeader.sessionID, sessionID),
         (ContractHeader.sequence, Array(sequence))]
    }

    static func value(sequence: ArraySlice<UInt8>) -> [UInt8] {
        Array("{\"sequence\":".utf8) + sequence + [0x7D]
    }
}

typealias KafkaHeaderPair = (name: String, value: [UInt8])
