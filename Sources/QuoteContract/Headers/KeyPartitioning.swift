/// How every producer of the contract's keyed topics maps a key to a partition: as Kafka's Java
/// clients do, `toPositive(murmur2(key)) % partitions` (`Utils.murmur2`, seed 0x9747b28c), so that a
/// Java gateway and ShipQuote put a session on the same partition. librdkafka's default
/// (`consistent_random`, CRC32) would put many keys elsewhere.
public enum KeyPartitioning {
    /// The librdkafka property that chooses the partitioner.
    public static let property = "partitioner"
    /// librdkafka's name for Java's partitioner (random for a record without a key).
    public static let librdkafkaName = "murmur2_random"
}
