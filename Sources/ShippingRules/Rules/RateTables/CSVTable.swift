import Foundation

/// A comma-separated table as spreadsheets and shops export it (RFC 4180: quoted fields, `""`
/// for a quote, CRLF or LF, an optional UTF-8 byte-order mark). Every field keeps its line and
/// column, so an error can point at the cell to fix.
struct CSVTable {
    struct Field {
        var text: String
        var mark: SourceMark
    }

    struct Row {
        var fields: [Field]
        var line: Int
    }

    let file: String
    /// The header's names as written.
    let header: [String]
    let rows: [Row]

    /// Parses the whole file; the first non-empty line is the header. Blank lines are skipped.
    init(bytes: [UInt8], file: String) throws(RulesError) {
        self.file = file
        var rows: [Row] = []
        var fields: [Field] = []
        var field: [UInt8] = []
        var line = 1, column = 1
        var fieldMark = SourceMark(line: 1, column: 1)
        var rowLine = 1
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var quoted = false, wasQuoted = false
        func text(_ bytes: [UInt8]) throws(RulesError) -> String {
            guard let s = String(validating: bytes, as: UTF8.self) else {
                throw RulesError(kind: .syntax, file: file, mark: fieldMark, field: "", message: "the file is not UTF-8 text; export it as CSV UTF-8")
            }
            return s
        }
        func endField() throws(RulesError) {
            fields.append(Field(text: try text(field), mark: fieldMark))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRow() {
            // A line holding nothing (not even a comma) is not a row.
            if !(fields.count == 1 && fields[0].text.isEmpty) { rows.append(Row(fields: fields, line: rowLine)) }
            fields.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 2; column += 2; continue }
                    quoted = false; wasQuoted = true
                } else {
                    field.append(b)
                    if b == 0x0A { line += 1; column = 0 }
                }
                i += 1; column += 1
                continue
            }
            switch b {
            case UInt8(ascii: ","):
                try endField()
                fieldMark = SourceMark(line: line, column: column + 1)
            case 0x0D where i + 1 < bytes.count && bytes[i + 1] == 0x0A:
                i += 1
                fallthrough
            case 0x0A:
                try endField(); endRow()
                line += 1; column = 0
                fieldMark = SourceMark(line: line, column: 1)
                rowLine = line
            case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                quoted = true
            default:
                if wasQuoted {
                    throw RulesError(kind: .syntax, file: file, mark: SourceMark(line: line, column: column), field: "",
                                     message: "text after a closing quote; a quote inside a quoted field is written twice (\"\")")
                }
                field.append(b)
            }
            i += 1; column += 1
        }
        if quoted {
            throw RulesError(kind: .syntax, file: file, mark: fieldMark, field: "", message: "a quoted field is not closed before the end of the file")
        }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { try endField(); endRow() }
        guard let first = rows.first else {
            throw RulesError(kind: .syntax, file: file, mark: SourceMark(line: 1, column: 1), field: "", message: "the file is empty; expected a header line")
        }
        header = first.fields.map(\.text)
        self.rows = Array(rows.dropFirst())
    }

    /// The header's column names compared without case, spaces or punctuation
    /// (`Postcode / ZIP` is `postcodezip`, `Rate %` is `rate`).
    static func key(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") }.map(Character.init))
    }

    /// The position of each wanted column (by any of its spellings), or an error naming the missing ones.
    func columns(_ wanted: [(name: String, spellings: [String], required: Bool)]) throws(RulesError) -> [Int?] {
        let keys = header.map(Self.key)
        var found: [Int?] = []
        var missing: [String] = []
        for column in wanted {
            let index = keys.firstIndex { key in column.spellings.contains(key) }
            if index == nil && column.required { missing.append(column.name) }
            found.append(index)
        }
        guard missing.isEmpty else {
            throw RulesError(kind: .missingKey, file: file, mark: SourceMark(line: 1, column: 1), field: "",
                             message: "the header has no column \(missing.map { "\"\($0)\"" }.joined(separator: ", ")); "
                             + "found \(header.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return found
    }

    /// The error for one cell: `file:line:column: Column: message`.
    func error(_ row: Row, _ column: Int, _ message: String) -> RulesError {
        let mark = column < row.fields.count ? row.fields[column].mark : SourceMark(line: row.line, column: 1)
        return RulesError(kind: .invalidValue, file: file, mark: mark, field: header[column], message: message)
    }

    /// The cell's text trimmed of spaces; empty when the row is short.
    func cell(_ row: Row, _ column: Int) -> String {
        column < row.fields.count ? row.fields[column].text.trimmingCharacters(in: .whitespaces) : ""
    }
}
