import Foundation
import JSONInput
import Testing

/// Every typed accessor refuses what it must and names the key path of what it refused.
@Suite struct JSONNodeTests {
    func doc(_ text: String) throws -> JSONNode { try JSONNode.parse(Data(text.utf8)) }

    /// The error a throwing read gives (nil when it succeeds).
    func failure(_ read: () throws -> Any) -> JSONPathError? {
        do { _ = try read(); return nil } catch let e as JSONPathError { return e } catch { Issue.record("\(error)"); return nil }
    }

    @Test func pathsNameNestedMembersAndIndices() throws {
        let d = try doc(#"{"a": {"b": [1, 2, "x"]}}"#)
        let e = try #require(failure { try d.required("a", "").required("b", "").numbers(3) })
        #expect(e.path == "a.b[2]" && e.expected == "a finite number" && e.found == "the string \"x\"")
        #expect(e.description == "a.b[2]: expected a finite number, found the string \"x\"")
        let missing = try #require(failure { try d.required("a", "").required("c", "a thing") })
        #expect(missing.description == "a.c: expected a thing, found nothing")
    }

    /// Paths are built only when asked for, from links: every way down (members, array items,
    /// optional and required members) gives the path a reader would write, under a root's own path.
    @Test func deepPathsAreTheOnesAReaderWouldWrite() throws {
        let d = try doc(#"{"tree": {"children": [{"lods": {}}, {"children": [{"lods": {"2": {"count": -1}}}]}]}}"#)
        let leaf = try d.required("tree", "").required("children", "").array()[1].members()["children"]!.array()[0]
        let count = try leaf.required("lods", "").members()["2"]!.optional("count")!
        #expect(count.path == "tree.children[1].children[0].lods.2.count")
        #expect(failure { try count.integer(in: 0...9) }?.description == "tree.children[1].children[0].lods.2.count: expected a whole number 0…9, found -1")
        let under = JSONNode(value: d.value, path: "scene.json")
        #expect(try under.required("tree", "").required("children", "").array()[0].path == "scene.json.tree.children[0]")
        #expect(JSONNode(value: .null, path: "top").path == "top" && d.path.isEmpty)
        #expect(failure { try d.required("tree", "").required("children", "").numbers(3) }?.description
                == "tree.children: expected 3 numbers, found an array of 2")
    }

    @Test func booleansAreNotNumbersAndNumbersAreNotBooleans() throws {
        let d = try doc(#"{"t": true, "f": false, "one": 1, "zero": 0, "half": 0.5}"#)
        #expect(failure { try d.required("t", "").number() }?.found == "true")
        #expect(failure { try d.required("f", "").integer() } != nil)
        #expect(try d.required("one", "").integer() == 1 && d.required("zero", "").number() == 0)
        #expect(try d.required("t", "").bool() == true && d.required("f", "").bool() == false)
        #expect(failure { try d.required("one", "").bool() } != nil && failure { try d.required("zero", "").bool() } != nil)
        #expect(failure { try d.required("half", "").integer() }?.path == "half")
    }

    @Test func numbersAreFiniteBoundedAndRanged() throws {
        let d = try doc(#"{"big": 1e300, "n": 3.0, "neg": -2, "huge": 1e20}"#)
        #expect(failure { try d.required("big", "").number() } != nil)
        #expect(try d.required("n", "").integer(in: 1...3) == 3)
        #expect(failure { try d.required("neg", "").integer(in: 0...5) }?.expected == "a whole number 0…5")
        #expect(failure { try d.required("huge", "").integer() } != nil)   // no trap converting to Int
        #expect(failure { try d.required("neg", "").number(in: 0...1, "a fraction") }?.expected == "a fraction")
    }

    @Test func shapesAreChecked() throws {
        let d = try doc(#"{"a": [1, 2], "o": {"k": null}, "s": "text"}"#)
        #expect(failure { try d.required("a", "").numbers(3) }?.found == "an array of 2")
        #expect(failure { try d.required("s", "").members() }?.expected == "an object")
        #expect(try d.required("o", "").required("k", "").isNull)
        #expect(try d.optional("absent") == nil)
        #expect(failure { try d.required("a", "").optional("x") }?.path == "a")
    }

    @Test func invalidTextIsOneLineAtTheRoot() throws {
        for text in ["", "{", "{\"a\": [1,}", "nul"] {
            let e = try #require(failure { try JSONNode.parse(Data(text.utf8)) }, "\(text)")
            #expect(e.path.isEmpty && e.expected == "valid JSON" && !e.description.contains("\n"))
        }
    }

    @Test func longPathsAreCutInTheMiddle() {
        let path = (0..<20).map { "node\($0)" }.joined(separator: ".")
        let e = JSONPathError(path: path, expected: "x", found: "y")
        #expect(e.shortPath.count <= 64 && e.shortPath.hasPrefix("node0.") && e.shortPath.hasSuffix("node19"))
    }
}
