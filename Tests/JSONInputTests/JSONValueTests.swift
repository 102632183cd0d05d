// JSONInputTests — the byte parser (`JSONValue.parse`) against Foundation's `JSONSerialization`
// as the reference: the same values on valid documents, written by hand and generated at random
// (numbers correctly rounded — Swift's `Double(String)` — and within 4 units in the last place of
// Foundation's, which on Linux can be that far off for long decimals), and both refuse the same
// invalid ones (both take a trailing comma); deep nesting is refused, not a crash.
import Foundation
import JSONInput
import Testing

@Suite struct JSONValueTests {
    /// Whether `v` is what Foundation parsed (`f`): numbers bit for bit, booleans as booleans.
    static func same(_ v: JSONValue, _ f: Any) -> Bool {
        switch v {
        case .null: return f is NSNull
        case .bool(let b):
            guard let n = f as? NSNumber, String(cString: n.objCType) == "c" else { return false }
            return n.boolValue == b
        case .number(let d):
            guard let n = f as? NSNumber, String(cString: n.objCType) != "c" else { return false }
            let f = n.doubleValue
            return f == d || abs(f - d) <= 4 * d.ulp
        case .string(let s): return (f as? String) == s
        case .array(let a):
            guard let b = f as? [Any], a.count == b.count else { return false }
            return zip(a, b).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let o = f as? [String: Any] else { return false }
            var last: [String: JSONValue] = [:]
            for (k, v) in members { last[k] = v }
            return last.count == o.count && last.allSatisfy { k, v in o[k].map { same(v, $0) } ?? false }
        }
    }

    static func check(_ text: String) throws -> Bool {
        let data = Data(text.utf8)
        let reference = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return same(try JSONValue.parse(data), reference)
    }

    @Test func handWrittenDocumentsReadAsFoundationReadsThem() throws {
        let docs = [#"{"a": [1, -2.5, 3e2, 0.1, -0, 1E-7, 123456789012345678], "b": {"c": null, "d": true, "e": false}}"#,
                    #"  [ "x\"y\\z\/\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "plain é 中" ]  "#, "42", "\"s\"", "[]", "{}",
                    #"{"dup": 1, "dup": 2}"#, "[1.7976931348623157e308, 5e-324, 2.2250738585072014e-308]"]
        for d in docs { #expect(try Self.check(d), "\(d)") }
        // Correctly rounded where Foundation is not.
        for text in ["2246417394.4529967", "391.50217961693437", "1.2878066697684425", "-0.0", "1e-320"] {
            guard case .number(let d) = try JSONValue.parse(Data(text.utf8)) else { Issue.record("\(text)"); continue }
            #expect(d.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
        // A comma before the closing bracket, as Foundation takes it.
        #expect(try Self.check("[1,]") && Self.check(#"{"a": 1,}"#))
    }

    @Test func randomDocumentsReadAsFoundationReadsThem() throws {
        var rng: UInt64 = 7
        func next() -> UInt64 { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return rng >> 33 }
        func number() -> String {
            let mantissa = Double(Int64(bitPattern: next() << 31 | next())) / Double(1 << (next() % 60))
            return next() % 3 == 0 ? String(format: "%.17g", mantissa) : next() % 2 == 0 ? "\(Int(mantissa))" : "\(mantissa)"
        }
        func value(_ depth: Int) -> String {
            switch depth > 4 ? next() % 3 : next() % 6 {
            case 0: return number()
            case 1: return ["null", "true", "false"][Int(next() % 3)]
            case 2: return "\"k\(next() % 100)\\n\\u00\(String(format: "%02x", 0x20 + next() % 90))\""
            case 3: return "[" + (0..<Int(next() % 5)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return "{" + (0..<Int(next() % 5)).map { _ in "\"m\(next() % 6)\": " + value(depth + 1) }.joined(separator: ", ") + "}"
            }
        }
        for _ in 0..<300 {
            let d = value(0)
            #expect(try Self.check(d), "\(d)")
        }
    }

    @Test func invalidDocumentsAreRefusedAsFoundationRefusesThem() {
        for text in ["", " ", "{", "[,]", "{,}", "{\"a\" 1}", "[01]", "[1.]", "[.5]", "[1e]", "[-]", "nul", "tru",
                     "\"abc", "\"a\\x\"", "\"\\u12\"", "[1] 2", "{\"a\": [1, 2}", "\"tab\there\"", "+1", "[NaN]", "[Infinity]"] {
            let data = Data(text.utf8)
            #expect((try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil, "Foundation took \(text)")
            do {
                _ = try JSONValue.parse(data)
                Issue.record("took \(text)")
            } catch let e as JSONPathError {
                #expect(e.path.isEmpty && e.expected == "valid JSON" && e.found.contains("at byte") && !e.description.contains("\n"), "\(e)")
            } catch { Issue.record("\(error)") }
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONPathError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try JSONValue.parse(Data(fine.utf8)) }
    }
}
