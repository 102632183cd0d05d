import Foundation
import RenderCore
import Testing
import Viewer

@Suite("Camera JSON and command-line values")
struct CameraFileTests {
    static func parse(_ s: String) throws -> Camera { try CameraFile.parse(Data(s.utf8), path: "cam.json") }
    static let identity = "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"
    static let proj = "[1,0,0,0,0,1,0,0,0,0,-1.002,-1,0,0,-0.02,0]"

    @Test func parsesAndRoundTrips() throws {
        let c = try Self.parse("{\"width\":64,\"height\":32,\"view\":\(Self.identity),\"projection\":\(Self.proj),\"background\":[0.1,0.2,0.3]}")
        #expect(c.width == 64 && c.height == 32 && c.background == Vec3(0.1, 0.2, 0.3))
        #expect(abs(c.near - 0.01) < 1e-4)
        let again = try Self.parse(CameraFile.json(c))
        #expect(again == c)
    }

    @Test("malformed camera files give one-line errors naming the problem", arguments: [
        ("not json", "expected valid JSON"),
        ("[1,2]", "expected an object"),
        ("{\"width\":64,\"height\":32,\"view\":[1,2],\"projection\":\(proj)}", "view: expected 16 numbers, found an array of 2"),
        ("{\"width\":0,\"height\":32,\"view\":\(identity),\"projection\":\(proj)}", "width: expected a whole number 1…16384, found 0"),
        ("{\"width\":64.5,\"height\":32,\"view\":\(identity),\"projection\":\(proj)}", "width: expected a whole number 1…16384, found 64.5"),
        ("{\"width\":64,\"height\":32,\"view\":\(identity),\"projection\":\(identity)}", "no perspective row"),
        ("{\"width\":64,\"height\":32,\"view\":\(identity),\"projection\":\(proj),\"background\":[1,\"x\",0]}", "background[1]: expected a finite number"),
        ("{\"width\":true,\"height\":32,\"view\":\(identity),\"projection\":\(proj)}", "width: expected a whole number 1…16384, found true"),
    ])
    func rejects(json: String, fragment: String) {
        do {
            _ = try Self.parse(json)
            Issue.record("accepted \(json)")
        } catch {
            let text = "\(error)"
            #expect(text.contains(fragment), "\(text)")
            #expect(text.hasPrefix("cam.json: ") && !text.contains("\n"))
        }
    }
}
