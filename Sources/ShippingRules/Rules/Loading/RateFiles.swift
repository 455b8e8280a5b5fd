import Foundation

/// Reads the rate tables a rules file names, relative to the rules file, and remembers each
/// file's digest: the rules version covers the tables' bytes as it covers the YAML's.
final class RateFiles {
    /// The rules file, whose folder relative paths start from.
    let rulesFile: String
    /// Each table read, in the order the rules name them: path as written, full path, SHA-256.
    private(set) var read: [(written: String, path: String, digest: String)] = []
    private var zips: [String: ZipRates] = [:]
    private var woo: [String: WooCommerceRates] = [:]

    /// A table larger than this is refused: 40,000 ZIPs take about 2 MB.
    static let maxBytes = 64 << 20

    init(rulesFile: String) { self.rulesFile = rulesFile }

    func zipRates(_ node: RulesNode) throws(RulesError) -> ZipRates {
        let (written, path) = try location(node)
        if let known = zips[path] { return known }
        let table = try ZipRates(try csv(node, written: written, path: path))
        zips[path] = table
        return table
    }

    func wooCommerce(_ node: RulesNode) throws(RulesError) -> WooCommerceRates {
        let (written, path) = try location(node)
        if let known = woo[path] { return known }
        let table = try WooCommerceRates(try csv(node, written: written, path: path))
        woo[path] = table
        return table
    }

    /// The version of rules whose YAML hashes to `yamlDigest`: that digest alone without tables (as
    /// before tables existed), else the digest of the YAML's digest and each table's name and digest.
    func version(yamlDigest: String) -> String {
        guard !read.isEmpty else { return "sha256:" + yamlDigest }
        let manifest = "rules \(yamlDigest)\n" + read.map { "\($0.written) \($0.digest)\n" }.joined()
        return "sha256:" + SHA256.hex(of: Array(manifest.utf8))
    }

    /// The full paths of the tables read.
    var paths: [String] { read.map(\.path) }

    private func location(_ node: RulesNode) throws(RulesError) -> (String, String) {
        let written = try node.nonEmptyString("a CSV file's path relative to the rules file, like rates/zip-rates.csv")
        let folder = (rulesFile as NSString).deletingLastPathComponent
        let path = written.hasPrefix("/") || folder.isEmpty ? written : (folder as NSString).appendingPathComponent(written)
        return (written, path)
    }

    private func csv(_ node: RulesNode, written: String, path: String) throws(RulesError) -> CSVTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw node.error(.unreadable, "cannot read \(path) (missing or not permitted); the path is relative to the rules file")
        }
        guard data.count <= Self.maxBytes else {
            throw node.error(.tooLarge, "\(path) holds \(data.count) bytes; a rate table may hold \(Self.maxBytes >> 20) MiB")
        }
        let bytes = [UInt8](data)
        if !read.contains(where: { $0.path == path }) { read.append((written, path, SHA256.hex(of: bytes))) }
        return try CSVTable(bytes: bytes, file: path)
    }
}
