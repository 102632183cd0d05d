// Settings — SettingOrigin and Resolved: a value plus where it came from.

/// Where an effective setting came from, in order of precedence (flag first).
public enum SettingOrigin: String, Sendable, Equatable, Codable {
    case flag = "flag"
    case configFile = "config file"
    case display = "display"
    case `default` = "default"
}

/// A value plus its origin.
public struct Resolved<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var origin: SettingOrigin
    public init(_ value: Value, _ origin: SettingOrigin) { self.value = value; self.origin = origin }

    /// The first value present in precedence order: `flag`, then `file`, then `fallback`.
    public static func pick(flag: Value?, file: Value?, default fallback: Value) -> Resolved {
        if let flag { return Resolved(flag, .flag) }
        if let file { return Resolved(file, .configFile) }
        return Resolved(fallback, .default)
    }
}
