/// A broken rule found while reading a contract document. The path is built while the failure
/// travels up (`quantity` → `items[3].quantity` → `cart.items[3].quantity`), so reading a valid
/// document never pays for path strings.
struct FieldFailure: Error {
    var code: RejectionCode
    var field: String?
    /// What was expected, without the field name and never with the value.
    var detail: String

    init(_ code: RejectionCode, _ field: String?, _ detail: String) {
        self.code = code
        self.field = field
        self.detail = detail
    }

    /// This failure seen from the object that holds `parent` (a key, or `[n]` for an index).
    func under(_ parent: String) -> FieldFailure {
        var copy = self
        if let field {
            copy.field = field.hasPrefix("[") ? parent + field : parent + "." + field
        } else {
            copy.field = parent
        }
        return copy
    }

    var message: String { field.map { "\($0) \(detail)" } ?? detail }
}

/// Runs `body`, prefixing the path of any failure with `parent`.
@inline(__always)
func within<T>(_ parent: @autoclosure () -> String, _ body: () throws(FieldFailure) -> T) throws(FieldFailure) -> T {
    do { return try body() } catch { throw error.under(parent()) }
}
