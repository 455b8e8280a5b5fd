import Foundation

/// Console output for people (the demo, `send`, `rules`), apart from the structured logs on stderr.
enum Output {
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func fail(_ text: String) -> Never {
        FileHandle.standardError.write(Data(("shipquote: " + text + "\n").utf8))
        exit(2)
    }
}
