// ArgumentValue — the command line's typed values: each an `ExpressibleByArgument` type parsed
// by one function with one rule and one message that names the allowed range. ArgumentParser puts
// the option and the value in front of it ("The value '0,0,-1' is invalid for '--eye <eye>': the
// eye must be …"); `--help` lists a type's words ("(values: y, -y, …)") and shell completions
// offer them. Contract: an option of such a type is declared `@Option(help:) var x: T?` (or with
// a default) and takes the next word whatever it looks like, so `--eye -0.05,0,0.6` and
// `--up -y` work as `--eye=-0.05,0,0.6` does.
import ArgumentParser

/// A value the command line reads: `parse` throws an `ArgumentRule` naming what is allowed.
protocol ArgumentValue: ExpressibleByArgument {
    /// The value `text` stands for, or an `ArgumentRule` saying what is allowed.
    static func parse(_ text: String) throws -> Self
}

/// A value with a grammar (`X,Y,Z`, `WxH`, `fixed:X,Y,Z`…): ArgumentParser's `init(argument:)`
/// is `parse` without its reason.
protocol ArgumentGrammar: ArgumentValue {}

extension ArgumentGrammar {
    init?(argument: String) {
        guard let value = try? Self.parse(argument) else { return nil }
        self = value
    }
}

/// A closed set of words (`--detector haar`, `--up -y`): `parse` is `init(argument:)` (exact,
/// else trimmed and lower-cased) with a message listing the words; `--help` and completions list them.
protocol ArgumentChoice: ArgumentValue, CaseIterable {}

extension ArgumentChoice {
    static func parse(_ text: String) throws -> Self {
        if let value = Self(argument: text) ?? Self(argument: text.trimmingCharacters(in: .whitespaces).lowercased()) { return value }
        throw ArgumentRule("expected \(listed(allValueStrings))")
    }
}

/// `a`, `a or b`, `a, b or c`.
func listed(_ words: [String]) -> String {
    words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
}

extension Option {
    /// An optional typed option: `--help` lists the type's words, completions offer them, and the
    /// value is the next word even when it starts with `-` (`--eye -0.05,0,0.6`).
    init<T: ArgumentValue>(name: NameSpecification = .long, help: ArgumentHelp? = nil) where Value == T? {
        self.init(name: name, parsing: .unconditional, help: Self.help(help, T.self, default: nil), completion: T.defaultCompletionKind,
                  transform: { try T.parse($0) })
    }

    /// A typed option with a default, which `--help` shows.
    init(wrappedValue: Value, name: NameSpecification = .long, help: ArgumentHelp? = nil) where Value: ArgumentValue {
        let shown = (wrappedValue as? any RawRepresentable).map { "\($0.rawValue)" } ?? wrappedValue.defaultValueDescription
        self.init(wrappedValue: wrappedValue, name: name, parsing: .unconditional, help: Self.help(help, Value.self, default: shown),
                  completion: Value.defaultCompletionKind, transform: { try Value.parse($0) })
    }

    /// `help` with the type's words and the default appended (ArgumentParser shows neither for a
    /// transformed option).
    private static func help<T: ArgumentValue>(_ help: ArgumentHelp?, _ type: T.Type, default shown: String?) -> ArgumentHelp {
        var h = help ?? ArgumentHelp()
        var notes: [String] = []
        if !T.allValueStrings.isEmpty { notes.append("values: " + T.allValueStrings.joined(separator: ", ")) }
        if let shown { notes.append("default: " + shown) }
        if !notes.isEmpty { h.abstract += (h.abstract.isEmpty ? "" : " ") + "(" + notes.joined(separator: "; ") + ")" }
        return h
    }
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
