// SceneIOTests — the SOG v2 writer: round trips through our SOG reader (folder and bundled .sog)
// held to what the format can keep — each scale and DC value read back is exactly the codebook
// entry nearest to the original, centres within half a 16-bit step of the log-lerp, rotations
// within a byte step, opacity within half a level — the codebook quantiser and the k-d tree
// against slow references, and refused or failed writes that leave nothing behind.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct SOGWriterTests {
    /// The cloud read back from `path`, with its splats put back in the original order.
    static func readBack(_ path: String, original c: SplatCloud) throws -> SplatCloud {
        let back = try #require(splats(try SceneFile.load(path: path)))
        #expect(back.count == c.count)
        let order = SOGWriter.mortonOrder(c.positions)
        var out = back
        for (t, g) in order.enumerated() {
            out.positions[g] = back.positions[t]; out.scales[g] = back.scales[t]; out.rotations[g] = back.rotations[t]
            out.opacities[g] = back.opacities[t]; out.dc[g] = back.dc[t]
            let r = back.shRestCount * 3
            for k in 0..<r { out.shRest[g * r + k] = back.shRest[t * r + k] }
        }
        return out
    }

    @Test(arguments: [0, 1, 3], [false, true])
    func roundTrip(degree: Int, bundled: Bool) throws {
        let c = syntheticCloud(count: 3000, degree: degree, seed: UInt64(40 + degree))
        let dir = TestData.temporaryDirectory()
        let path = dir.appendingPathComponent(bundled ? "out.sog" : "out/meta.json").path
        try SOGWriter.write(c, to: path, options: { var o = SOGWriter.Options(); o.shIterations = 3; return o }())
        let b = try Self.readBack(path, original: c)
        #expect(b.shDegree == degree)

        // Scales and DC: exactly the nearest codebook entry (the codebooks as the writer made them).
        let logScales = (0..<3).map { a in c.scales.map { logf([$0.x, $0.y, $0.z][a]) } }
        let sq = Quantizer1D.quantize(logScales)
        let dq = Quantizer1D.quantize((0..<3).map { a in c.dc.map { [$0.x, $0.y, $0.z][a] } })
        var worstPosition: Float = 0, worstAngle: Float = 0, worstOpacity: Float = 0
        for i in 0..<c.count {
            for a in 0..<3 {
                let want = expf(sq.centroids[Int(Quantizer1D.label(of: logScales[a][i], in: sq.centroids))])
                #expect(abs([b.scales[i].x, b.scales[i].y, b.scales[i].z][a] - want) <= want * 1e-6, "scale \(i).\(a)")
                let dcWant = dq.centroids[Int(Quantizer1D.label(of: [c.dc[i].x, c.dc[i].y, c.dc[i].z][a], in: dq.centroids))]
                #expect([b.dc[i].x, b.dc[i].y, b.dc[i].z][a] == dcWant, "dc \(i).\(a)")
            }
            worstPosition = max(worstPosition, maxDiff(b.positions[i], c.positions[i]))
            worstAngle = max(worstAngle, angle(b.rotations[i], c.rotations[i]))
            worstOpacity = max(worstOpacity, abs(b.opacities[i] - c.opacities[i]))
        }
        // Centres within ±5 m: a log-lerp step is ln(6)·2/65535 in t, ×e^|t| ≤ 6 in metres; half a step.
        #expect(worstPosition <= 0.5 * 2 * logf(6) / 65535 * 6 * 1.01, "worst centre error \(worstPosition) m")
        #expect(worstAngle < 0.6 * Float.pi / 180 * 2, "worst rotation error \(worstAngle * 180 / .pi)°")
        #expect(worstOpacity <= 0.5 / 255 + 1e-6, "worst opacity error \(worstOpacity)")
        if degree > 0 {
            // Random SH rows cannot all be kept by a palette smaller than the cloud; the error must
            // still be well below the values' spread (uniform in ±0.5: RMS 0.29).
            let d = zip(b.shRest, c.shRest).map { ($0 - $1) * ($0 - $1) }
            let rms = (d.reduce(0, +) / Float(d.count)).squareRoot()
            #expect(rms < 0.2, "SH RMS error \(rms)")
        }
        print("SOG v2 \(bundled ? ".sog" : "folder"), degree \(degree): centre \(worstPosition) m, rotation \(worstAngle * 180 / .pi)°, opacity \(worstOpacity)")
    }

    @Test("SH rows from a small palette come back through the palette unchanged but for the codebook")
    func shPalette() throws {
        // 20 distinct SH rows over 2,000 splats: k-means with 256+ clusters keeps every row.
        var c = syntheticCloud(count: 2000, degree: 2, seed: 7)
        let r = c.shRestCount * 3
        for i in 0..<c.count { for k in 0..<r { c.shRest[i * r + k] = Float((i % 20) * r + k) / Float(20 * r) - 0.5 } }
        let path = TestData.temporaryDirectory().appendingPathComponent("p.sog").path
        try SOGWriter.write(c, to: path)
        let b = try Self.readBack(path, original: c)
        // 480 distinct values through a 256-entry codebook: within half the widest gap (1/480 apart → ≤ 2 gaps).
        let worst = zip(b.shRest, c.shRest).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 2.0 / Float(20 * r), "worst SH error \(worst)")
    }

    @Test("the codebook keeps up to 256 distinct values exactly and labels the nearest entry")
    func quantizerExact() {
        let values = (0..<200).map { Float($0) * 0.37 - 20 }
        let data = (0..<1000).map { values[($0 * 7) % 200] }
        let q = Quantizer1D.quantize([data, Array(data.reversed())])
        #expect(q.centroids.count == 256)
        for (i, v) in data.enumerated() { #expect(q.centroids[Int(q.labels[0][i])] == v, "value \(v)") }
        // Nearest entry, against a linear scan.
        let book = Quantizer1D.quantize([(0..<5000).map { sinf(Float($0)) * 3 }]).centroids
        for t in stride(from: Float(-4), through: 4, by: 0.013) {
            let fast = Int(Quantizer1D.label(of: t, in: book))
            let slow = book.indices.min { (abs(book[$0] - t), $0) < (abs(book[$1] - t), $1) }!
            #expect(abs(book[fast] - t) == abs(book[slow] - t), "\(t)")
        }
    }

    @Test("the divide-and-conquer programme finds codebooks as good as the plain one")
    func quantizerMatchesReference() {
        var rng = SeededRandom(seed: 11)
        func r() -> Float { Float(rng.next() >> 40) / Float(1 << 24) }
        for (n, k) in [(300, 16), (5000, 64), (20000, 256)] {
            // A skewed mixture: a dense core, a long tail.
            let data = (0..<n).map { i in i % 5 == 0 ? r() * 40 - 20 : (r() + r() + r()) - 1.5 }.sorted()
            let fast = Quantizer1D.centroids(sorted: data, k: k, alpha: 0.5)
            let slow = Quantizer1D.centroids(sorted: data, k: k, alpha: 0.5, reference: true)
            func sse(_ book: [Float]) -> Double {
                data.reduce(0) { acc, v in
                    let c = book[Int(Quantizer1D.label(of: v, in: book))]
                    return acc + Double((v - c) * (v - c))
                }
            }
            #expect(fast.count == slow.count)
            #expect(sse(fast) <= sse(slow) * 1.02 + 1e-9, "n \(n), k \(k): \(sse(fast)) vs \(sse(slow))")
        }
    }

    @Test("two-level k-means lands near plain Lloyd on clustered rows")
    func kMeansQuality() {
        // 40 true clusters in 24 dimensions, 6,000 rows, 40 centroids: Lloyd from random seeds
        // ends in a local optimum either way; the two-level error must stay within 1.5× of plain
        // Lloyd's over every row (brute-force assignment), the slow reference.
        var rng = SeededRandom(seed: 5)
        func r() -> Float { Float(rng.next() >> 40) / Float(1 << 24) - 0.5 }
        let dims = 24, rows = 6000, truth = 40
        let centres = (0..<(truth * dims)).map { _ in r() * 4 }
        let points = (0..<rows).flatMap { i in (0..<dims).map { centres[(i % truth) * dims + $0] + r() * 0.1 } }
        func error(_ c: [Float], _ l: [UInt32]) -> Double {
            (0..<rows).reduce(0) { acc, i in acc + (0..<dims).reduce(0) { a, d in
                let x = Double(points[i * dims + d] - c[Int(l[i]) * dims + d]); return a + x * x } }
        }
        let twoLevel = KMeans(points: points, rows: rows, dims: dims, k: truth, iterations: 10)
        var random = SeededRandom(seed: 9)
        let plain = KMeans.lloyd(points, dims: dims, rows: Array(0..<rows), k: truth, iterations: 10, random: &random)
        let plainLabels = KMeans.assign(points, dims: dims, rows: Array(0..<rows), centroids: plain, count: truth)
        #expect(twoLevel.centroids.count <= truth * dims)
        #expect(twoLevel.labels.allSatisfy { Int($0) < twoLevel.centroids.count / dims })
        let a = error(twoLevel.centroids, twoLevel.labels), b = error(plain, plainLabels)
        print("k-means squared error: two-level \(a), plain \(b)")
        #expect(a <= b * 1.5, "two-level \(a) vs plain \(b)")
    }

    @Test("refused and failed writes are one line and leave no SOG behind")
    func failures() throws {
        let dir = TestData.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(throws: SceneIOError.self) { try SOGWriter.write(SplatCloud(shDegree: 0), to: dir.appendingPathComponent("e.sog").path) }
        var c = syntheticCloud(count: 10, degree: 0)
        c.positions[3] = Vec3(.nan, 0, 0)
        do { try SOGWriter.write(c, to: dir.appendingPathComponent("n.sog").path); Issue.record("NaN centre accepted") } catch {
            #expect("\(error)".contains("row 3") && !"\(error)".contains("\n"), "\(error)")
        }
        // A folder that cannot be written.
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path) }
        if getuid() != 0 {  // root writes anywhere
            let good = syntheticCloud(count: 10, degree: 0)
            #expect(throws: SceneIOError.self) { try SOGWriter.write(good, to: locked.appendingPathComponent("x.sog").path) }
            #expect(throws: SceneIOError.self) { try SOGWriter.write(good, to: locked.appendingPathComponent("f/meta.json").path) }
            #expect((try FileManager.default.contentsOfDirectory(atPath: locked.path)).isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("e.sog").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("n.sog").path))
    }
}
