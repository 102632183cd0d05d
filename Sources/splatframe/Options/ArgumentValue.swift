// ArgumentValue — the command line's typed values: each parsed by one function with one rule,
// and one message that names the allowed range. ArgumentParser puts the option and the value in
// front of it ("The value '0,0,-1' is invalid for '--eye <eye>': the eye must be …").
import ArgumentParser

/// A value the command line reads with `@Option(transform: T.parse)`: `parse` throws an
/// `ArgumentRule` naming what is allowed.
protocol ArgumentValue {
    /// The value `text` stands for, or an `ArgumentRule` saying what is allowed.
    static func parse(_ text: String) throws -> Self
}

/// What a value must be; ArgumentParser prints it after the option and the value.
struct ArgumentRule: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A bad combination of options, or a value that only `run()` can judge (a file that does not
/// fit the camera's size, say): printed in the same form as ArgumentParser's own value errors.
struct OptionError: Error, CustomStringConvertible {
    let option: String
    let value: String
    let reason: String

    init(_ option: String, _ value: String = "", _ reason: String) {
        self.option = option; self.value = value; self.reason = reason
    }

    var description: String {
        value.isEmpty ? "'\(option)': \(reason)" : "The value '\(value)' is invalid for '\(option)': \(reason)"
    }
}
