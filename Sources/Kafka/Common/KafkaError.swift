import CRdKafka

/// An error from librdkafka or from our use of it, with librdkafka's code name so that operators
/// can look it up (`_QUEUE_FULL`, `NOT_LEADER_FOR_PARTITION`, …).
public struct KafkaError: Error, Sendable, CustomStringConvertible, Equatable {
    public let code: Int32
    public let name: String
    public let message: String
    public let isFatal: Bool
    public let isRetriable: Bool

    init(_ err: rd_kafka_resp_err_t, context: String, isFatal: Bool = false, isRetriable: Bool = false) {
        self.code = err.rawValue
        self.name = String(cString: rd_kafka_err2name(err))
        self.message = "\(context): \(String(cString: rd_kafka_err2str(err)))"
        self.isFatal = isFatal
        self.isRetriable = isRetriable
    }

    /// The error librdkafka's code `code` names (a `rd_kafka_resp_err_t` raw value), for code
    /// beside this target that calls librdkafka itself (the embedded mock cluster) or fakes its errors in tests.
    package init(code: Int32, context: String, isFatal: Bool = false) {
        self.init(rd_kafka_resp_err_t(rawValue: code), context: context, isFatal: isFatal)
    }

    /// Takes ownership of a `rd_kafka_error_t` and destroys it.
    init(consuming error: OpaquePointer, context: String) {
        let err = rd_kafka_error_code(error)
        self.code = err.rawValue
        self.name = String(cString: rd_kafka_err2name(err))
        self.message = "\(context): \(String(cString: rd_kafka_error_string(error)))"
        self.isFatal = rd_kafka_error_is_fatal(error) != 0
        self.isRetriable = rd_kafka_error_is_retriable(error) != 0
        rd_kafka_error_destroy(error)
    }

    /// A configuration mistake of ours or of the operator; the message names the setting.
    public static func invalidConfiguration(_ message: String) -> KafkaError {
        KafkaError(code: RD_KAFKA_RESP_ERR__INVALID_ARG.rawValue, name: "_INVALID_ARG", message: message)
    }

    public init(code: Int32, name: String, message: String, isFatal: Bool = false, isRetriable: Bool = false) {
        self.code = code
        self.name = name
        self.message = message
        self.isFatal = isFatal
        self.isRetriable = isRetriable
    }

    public var description: String { "\(name): \(message)" }

    /// Errors that no retry can cure: the record itself is refused (too large, invalid).
    public var isPermanentForRecord: Bool {
        [RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE,
         RD_KAFKA_RESP_ERR_INVALID_RECORD, RD_KAFKA_RESP_ERR_INVALID_MSG].map(\.rawValue).contains(code)
    }
}
