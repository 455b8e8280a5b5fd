/// One unit's outer size in whole millimetres, as the carrier measures the parcel.
public struct ItemDimensions: Hashable, Sendable {
    /// Per side: 100 m. With it a unit's volume stays below 10^15 mm³, far inside `Int64`.
    public static let maxMillimetres = 100_000

    public var length: Int
    public var width: Int
    public var height: Int

    public init(length: Int, width: Int, height: Int) {
        self.length = length
        self.width = width
        self.height = height
    }

    /// Cubic millimetres; nil when a side is outside 0…`maxMillimetres` (never from a decoded event).
    public var volume: Int64? {
        let range = 0...Self.maxMillimetres
        guard range.contains(length), range.contains(width), range.contains(height) else { return nil }
        return Int64(length) * Int64(width) * Int64(height)
    }
}
