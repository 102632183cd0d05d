// Timewarp on synthetic frames: where points at infinity and in the screen plane go, what fills
// a disocclusion, the slow reference, thread independence and bad input.
import Testing
import RenderCore
import TestSupport
@testable import Reprojection

@Suite("timewarp")
struct TimewarpTests {
    static let rect = ScreenRect(screen: ScreenGeometry(width: 0.6, height: 0.34))
    static let width = 320, height = 180

    static func camera(_ eye: Vec3, width: Int = width, height: Int = height) -> Camera {
        OffAxisFrustum.camera(eye: eye, rect: rect, width: width, height: height)
    }

    /// A frame whose every pixel has colour `color(x, y)` and depth `depth(x, y)`.
    static func frame(width: Int = width, height: Int = height, color: (Int, Int) -> UInt32, depth: (Int, Int) -> Float) -> Framebuffer {
        let f = Framebuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { f.color[y * width + x] = color(x, y); f.depth[y * width + x] = depth(x, y) } }
        return f
    }

    static func pattern(_ x: Int, _ y: Int) -> UInt32 { PackedColor.pack(r: UInt8(x & 255), g: UInt8(y & 255), b: UInt8((x * 7 + y * 13) & 255)) }

    @Test func pointsAtInfinityMoveWithTheEyeAcrossTheScreen() throws {
        let source = Self.frame(color: Self.pattern, depth: { _, _ in .infinity })
        let target = Framebuffer(width: Self.width, height: Self.height)
        // 320 px over 0.6 m: a 7.5 mm move right is 4 px.
        let a = Vec3(0, 0, 0.6), move = Vec3(0.0075, 0, 0)
        let stats = try Timewarp(threads: 2).warp(source, from: Self.camera(a), to: Self.camera(a + move), into: target)
        let shifted = Self.frame(color: { Self.pattern(max(0, $0 - 4), $1) }, depth: { _, _ in .infinity })
        let c = ImageComparison(target.image(), shifted.image())
        // (Within one level: the bilinear read's 1/256-pixel weights meet float rounding.)
        #expect(c.maxError <= 1, "a point at infinity moves 4 px right for a 7.5 mm move right: \(c)")
        #expect(stats.holePixels == 4 * Self.height, "the strip the old frame never saw")
        #expect(target.depth[Self.width * 90 + 100] == .infinity && target.depth[Self.width * 90 + 1] == .infinity)
    }

    @Test func pointsInTheScreenPlaneStayWhereTheyAre() throws {
        let eye = Vec3(0.02, -0.01, 0.55)
        let source = Self.frame(color: Self.pattern, depth: { _, _ in eye.z })
        let target = Framebuffer(width: Self.width, height: Self.height)
        let stats = try Timewarp(threads: 2).warp(source, from: Self.camera(eye), to: Self.camera(Vec3(-0.01, 0.015, 0.62)), into: target)
        let c = ImageComparison(target.image(), source.image())
        #expect(c.maxError <= 1, "\(c)")
        #expect(stats.holePixels == 0)
        #expect(abs(target.depth[Self.width * 90 + 160] - 0.62) < 1e-5, "depth is the new eye's distance to the screen")
    }

    @Test func theSameCameraGivesTheSameFrame() throws {
        let source = Self.frame(color: Self.pattern, depth: { x, y in 0.3 + Float((x * 31 + y * 17) % 97) * 0.02 })
        source.depth[5] = .infinity
        let target = Framebuffer(width: Self.width, height: Self.height)
        let cam = Self.camera(Vec3(0.03, 0.02, 0.6))
        try Timewarp(threads: 2).warp(source, from: cam, to: cam, into: target)
        let c = ImageComparison(target.image(), source.image())
        #expect(c.maxError == 0, "\(c)")
        let worst = zip(target.depthArray, source.depthArray).map { $0 == $1 ? 0 : abs($0 - $1) / $1 }.max()!
        #expect(worst < 1e-5)
    }

    @Test func aDisocclusionIsFilledWithTheBackgroundNotTheForeground() throws {
        // A red card 0.3 m in front of the screen over a blue wall 1 m behind it (eye at 0.6 m).
        let red = PackedColor.pack(r: 255, g: 0, b: 0), blue = PackedColor.pack(r: 0, g: 0, b: 255)
        let card = 120..<200, cardRows = 60..<120
        func inCard(_ x: Int, _ y: Int) -> Bool { card.contains(x) && cardRows.contains(y) }
        let source = Self.frame(color: { inCard($0, $1) ? red : blue }, depth: { inCard($0, $1) ? 0.3 : 1.6 })
        let target = Framebuffer(width: Self.width, height: Self.height)
        let stats = try Timewarp(threads: 2).warp(source, from: Self.camera(Vec3(0, 0, 0.6)), to: Self.camera(Vec3(0.015, 0, 0.6)),
                                                  into: target)
        // The card (screen-space shift −Δ·0.3/0.3 = −8 px) and the wall (+Δ·1/1.6 = 5 px) part: a 13 px gap.
        var redCount = 0, misplacedRed = 0
        for y in 0..<Self.height { for x in 0..<Self.width where target.color[y * Self.width + x] == red {
            redCount += 1
            if !inCard(x + 8, y) { misplacedRed += 1 }
        } }
        #expect(redCount == card.count * cardRows.count && misplacedRed == 0)
        #expect(stats.holePixels >= 12 * cardRows.count, "the gap opened right of the card")
        let gap = (192..<204).map { target.color[90 * Self.width + $0] }
        #expect(gap.allSatisfy { $0 == blue }, "the wall, not the card, fills what the card uncovered")
    }

    @Test func quadsMarkedSmoothAreSmoothInTheWarpsDepth() throws {
        // A slanted plane, a closer disc with a soft rim (infinite depth around it, which the
        // warp dilates) and empty background: the marks (sign bits of the warp's depth) must
        // name exactly the quads whose four dilated depths lie within 2 % of each other, less
        // those dilation may touch, and the resolve then skips their depth test.
        let source = Self.frame(color: Self.pattern, depth: { x, y in
            let dx = Float(x - 160), dy = Float(y - 90)
            if dx * dx + dy * dy < 900 { return 0.45 + Float(x) * 0.0005 }
            if dx * dx + dy * dy < 1300 || x > 280 { return .infinity }
            return 0.7 + Float(y) * 0.003 + Float(x % 37 == 0 ? 0.05 : 0) })
        let warper = Timewarp(threads: 2)
        try warper.setSource(source, camera: Self.camera(Vec3(0, 0, 0.6)))
        let w = Self.width, depth = warper.warpDepth.base
        var marked = 0, wrong = 0
        for y in 0..<(Self.height - 1) {
            for x in 0..<(w - 1) where depth[y * w + x].sign == .minus {
                marked += 1
                let quad = [depth[y * w + x], depth[y * w + x + 1], depth[(y + 1) * w + x], depth[(y + 1) * w + x + 1]].map(abs)
                for a in quad { for b in quad where !(b >= a * 0.98 && a >= b * 0.98) { wrong += 1 } }
            }
            #expect(depth[y * w + w - 1].sign == .plus, "the last column has no quads")
        }
        #expect(wrong == 0, "\(wrong) marked quads mix depths")
        #expect(marked > Self.width * Self.height / 2, "most of the plane and the background is smooth (\(marked) quads marked)")
        let target = Framebuffer(width: Self.width, height: Self.height)
        try warper.warp(to: Self.camera(Vec3(-0.006, 0.008, 0.6)), into: target)
        let expected = ReferenceTimewarp.warp(source, from: Self.camera(Vec3(0, 0, 0.6)), to: Self.camera(Vec3(-0.006, 0.008, 0.6)))
        let c = ImageComparison(target.image(), expected.image(), tolerance: 1)
        #expect(Double(c.differingPixels) <= 0.002 * Double(Self.width * Self.height), "\(c)")
    }

    @Test func theFastWarpMatchesTheSlowReference() throws {
        let source = Self.frame(color: Self.pattern, depth: { x, y in
            y > 150 ? 0.6 + Float(y - 150) * -0.002 : (x / 40 + y / 30) % 3 == 0 ? .infinity : 0.4 + Float((x / 40 + y / 30) % 5) * 0.3 })
        for (a, b) in [(Vec3(0, 0, 0.6), Vec3(0.01, 0, 0.6)), (Vec3(0.02, -0.01, 0.55), Vec3(0.005, 0.012, 0.58)),
                       (Vec3(0, 0, 0.6), Vec3(0, -0.03, 0.6))] {
            let target = Framebuffer(width: Self.width, height: Self.height)
            try Timewarp(threads: 2).warp(source, from: Self.camera(a), to: Self.camera(b), into: target)
            let expected = ReferenceTimewarp.warp(source, from: Self.camera(a), to: Self.camera(b))
            let c = ImageComparison(target.image(), expected.image(), tolerance: 1)
            #expect(Double(c.differingPixels) <= 0.002 * Double(Self.width * Self.height), "\(a)→\(b): \(c)")
            let depthOff = zip(target.depthArray, expected.depthArray).filter { !($0 == $1 || abs($0 - $1) <= 1e-4 * $1) }.count
            #expect(Double(depthOff) <= 0.002 * Double(Self.width * Self.height), "\(a)→\(b): \(depthOff) depths differ")
        }
    }

    @Test func theOutputDoesNotDependOnThreadsOrBands() throws {
        let source = Self.frame(color: Self.pattern, depth: { x, y in (x + y) % 11 == 0 ? .infinity : 0.2 + Float((x * 13 + y * 7) % 23) * 0.1 })
        let from = Self.camera(Vec3(0.01, 0.02, 0.6)), to = Self.camera(Vec3(-0.01, -0.02, 0.57))
        let one = Framebuffer(width: Self.width, height: Self.height), three = Framebuffer(width: Self.width, height: Self.height)
        try Timewarp(threads: 1).warp(source, from: from, to: to, into: one)
        let warper = Timewarp(threads: 3)
        warper.bandRows = 7
        try warper.warp(source, from: from, to: to, into: three)
        #expect(one.colorArray == three.colorArray, "\(ImageComparison(one.image(), three.image()))")
        #expect(one.depthArray == three.depthArray, "\(zip(one.depthArray, three.depthArray).filter { $0 != $1 }.count) depths differ")
        #expect(one.depthArray.allSatisfy { $0 > 0 }, "every depth is positive once the warp returns")
    }

    @Test func aSourceWiderThanTheTargetFillsTheEdges() throws {
        // A guard band: the source spans 40 px more each side, so a lateral move reveals no strip.
        let wide = ScreenRect(minX: -0.375, maxX: 0.375, minY: -0.17, maxY: 0.17)
        let from = OffAxisFrustum.camera(eye: Vec3(0, 0, 0.6), rect: wide, width: 400, height: 180)
        let source = Self.frame(width: 400, height: 180, color: Self.pattern, depth: { _, _ in .infinity })
        let target = Framebuffer(width: Self.width, height: Self.height)
        let stats = try Timewarp(threads: 2).warp(source, from: from, to: Self.camera(Vec3(0.0075, 0, 0.6)), into: target)
        #expect(stats.holePixels == 0)
        #expect(target.color[0] == Self.pattern(40 - 4, 0))
    }

    @Test func badInputGivesAOneLineError() {
        let warper = Timewarp(threads: 1)
        let small = Framebuffer(width: 10, height: 10), cam = Self.camera(Vec3(0, 0, 0.6))
        #expect(throws: ReprojectionError.noSource) { try warper.warp(to: cam, into: small) }
        do {
            try warper.warp(small, from: cam, to: cam, into: small)
            Issue.record("a 10×10 frame with a 320×180 camera was accepted")
        } catch {
            #expect(error.description == "timewarp: the source framebuffer is 10×10 but its camera is 320×180")
        }
        var ortho = Self.camera(Vec3(0, 0, 0.6), width: 10, height: 10)
        ortho.projection = .identity
        #expect(throws: ReprojectionError.unsupportedProjection(what: "source")) {
            try warper.warp(small, from: ortho, to: Self.camera(Vec3(0, 0, 0.6), width: 10, height: 10), into: small)
        }
    }
}
