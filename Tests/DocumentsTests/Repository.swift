import Foundation

/// Files of this repository, found from this source file's place in it.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func text(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: url(path))) }

    /// The `.json` files in a folder, sorted.
    static func jsonFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }
}
