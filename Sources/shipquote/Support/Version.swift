import Kafka
import QuoteContract

/// What `shipquote --version` prints. The version is kept here by hand (SwiftPM bakes no revision
/// into a build without a plugin); the librdkafka version is read from the library at run time.
enum ShipQuoteVersion {
    static let version = "0.2.0-dev"

    static var text: String {
        """
        shipquote \(version)
        wire contract version \(QuoteReply.currentVersion), state record format version 1
        librdkafka \(KafkaLibrary.version)
        """
    }
}
