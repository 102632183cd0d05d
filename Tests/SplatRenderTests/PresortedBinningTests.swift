// Presorted binning (`SplatDepthOrder`, `PresortedBinWork`) against the ordinary per-tile sort,
// the reference here: while only the eye translates, every tile's list binned from the kept depth
// order must hold the sorted list's pairs, in depth order, equal depths in the kept order's order
// (nearer r·p first, then source index: where float rounding gave distinct r·p one depth, the
// order keeps their true order, which the per-tile sort cannot see) — so the frames are the sorted
// frames' bytes wherever no two depths tie, and splats of exactly equal depth (a wall parallel to
// the screen) come out in source order as the sort leaves them. At one, two (the two-ended
// scatter) and three (the counting pass) threads; a camera that rotates every frame must fall
// back to the sort.
@testable import SplatRender
import Foundation
import Procedural
import RenderCore
import Testing
import TestSupport

@Suite("presorted binning")
struct PresortedBinningTests {
    /// The window's camera: an off-axis frustum through a 0.6 × 0.34 m screen from `eye`, the
    /// model placed by `model` (view = translation(−eye) · model, as `PlacedModel` makes it).
    static func windowCamera(eye: Vec3, model: Matrix4, width: Int = 192, height: Int = 108) -> Camera {
        var cam = OffAxisFrustum.camera(eye: eye, screen: ScreenGeometry(width: 0.6, height: 0.34),
                                        width: width, height: height, background: Vec3(0.1, 0.2, 0.3))
        cam.view = cam.view * model
        return cam
    }

    /// Eyes along a small figure-eight in front of the screen.
    static let eyes: [Vec3] = (0..<5).map { i in
        let t = Float(i) * 0.9
        return Vec3(0.08 * sin(t), 0.04 * sin(2 * t), 0.6 + 0.03 * cos(t))
    }

    /// A placement: scaled, turned and pushed behind the screen.
    static let model = Matrix4.translation(Vec3(0, -0.02, -0.35)) * Matrix4.rotation(angle: 0.4, axis: Vec3(0.3, 1, 0.1))
        * Matrix4.scale(Vec3(0.5, 0.5, 0.5))

    /// Renders `cameras` in turn with the depth order on and off (`threads` workers each): every
    /// presorted tile list must be the sorted list's pairs in depth order, equal depths in the
    /// kept order's order (`listsAgree`); colour may differ only where two depths tie
    /// (`maxDifferingPixels`), depth not at all. Returns how many frames were presorted.
    static func compare(_ splats: PreparedSplats, cameras: [Camera], threads: Int, maxDifferingPixels: Int = 0,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let sorted = SplatRenderer(threads: threads), presorted = SplatRenderer(threads: threads)
        sorted.reusesDepthOrder = false
        let a = Framebuffer(width: cameras[0].width, height: cameras[0].height)
        let b = Framebuffer(width: cameras[0].width, height: cameras[0].height)
        var frames = 0
        for (i, cam) in cameras.enumerated() {
            let ta = sorted.render(splats, camera: cam, into: a)
            let tb = presorted.render(splats, camera: cam, into: b)
            #expect(!ta.presorted, sourceLocation: sourceLocation)
            if tb.presorted {
                frames += 1
                let (mismatched, misordered) = listsAgree(sorted: sorted, presorted: presorted, splats: splats, camera: cam)
                #expect(mismatched == 0 && misordered == 0,
                        "frame \(i), \(threads) threads: \(mismatched) tiles hold other pairs, \(misordered) out of order",
                        sourceLocation: sourceLocation)
            }
            #expect(ta.visibleSplats > 0, sourceLocation: sourceLocation)
            let ca = a.colorArray, cb = b.colorArray, da = a.depthArray, db = b.depthArray
            let colour = (0..<ca.count).filter { ca[$0] != cb[$0] }.count
            let depth = (0..<da.count).filter { da[$0].bitPattern != db[$0].bitPattern }.count
            #expect(colour <= maxDifferingPixels && depth == 0,
                    "frame \(i), \(threads) threads: \(colour) colour and \(depth) depth pixels differ",
                    sourceLocation: sourceLocation)
            #expect(ImageComparison(a.image(), b.image(), tolerance: 0).psnr >= 50, sourceLocation: sourceLocation)
        }
        return frames
    }

    /// Per tile of the last frames of `sorted` and `presorted` (same splats, same camera): the
    /// tiles whose presorted list is not the sorted list's pairs, and those whose presorted list
    /// is not in depth order with equal depths in the kept order's order.
    static func listsAgree(sorted: SplatRenderer, presorted: SplatRenderer, splats: PreparedSplats,
                           camera: Camera) -> (mismatched: Int, misordered: Int) {
        let tiles = ((camera.width + 15) / 16) * ((camera.height + 15) / 16)
        guard let order = splats.depthOrderState.withLock({ $0.order }) else { return (tiles, tiles) }
        // The place in the order of each output slot's splat (source index → prepared slot → place).
        var slotOfSource = [Int](repeating: -1, count: splats.count), place = [Int](repeating: -1, count: splats.count)
        for slot in 0..<splats.count { slotOfSource[Int(splats.sourceIndex[slot])] = slot }
        for k in 0..<order.count { place[Int(order.slots.base[k])] = k }
        var mismatched = 0, misordered = 0
        for t in 0..<tiles {
            let sa = sorted.tileStart.base, sb = presorted.tileStart.base
            let listA = (Int(sa[t])..<Int(sa[t + 1])).map { sorted.pairsA.base[$0] }
            let listB = (Int(sb[t])..<Int(sb[t + 1])).map { presorted.pairsA.base[$0] }
            func source(_ p: TilePair) -> UInt32 { presorted.slotSource.base[Int(p >> 32)] }
            func key(_ p: TilePair) -> UInt32 { UInt32(truncatingIfNeeded: p) }
            // The same pairs: the presorted list ordered as the sort orders (depth, then source).
            if listB.sorted(by: { (key($0), source($0)) < (key($1), source($1)) }) != listA { mismatched += 1; continue }
            for j in listB.indices.dropFirst() {
                let p = listB[j - 1], q = listB[j]
                if key(p) > key(q) || (key(p) == key(q) && place[slotOfSource[Int(source(p))]] > place[slotOfSource[Int(source(q))]]) {
                    misordered += 1; break
                }
            }
        }
        return (mismatched, misordered)
    }

    @Test(arguments: [1, 2, 3])
    func translatingEyeGivesTheSortedLists(threads: Int) {
        let splats = SplatRenderer.prepare(SplatSceneGenerator.object(count: 20_000, shDegree: 1))
        let cams = Self.eyes.map { Self.windowCamera(eye: $0, model: Self.model) }
        // The first frame asks, the second makes the order; every later one uses it. A few pixels
        // (where rounding gave two splats one depth) show the order's nearer one first.
        #expect(Self.compare(splats, cameras: cams, threads: threads, maxDifferingPixels: 20) == cams.count - 1)
    }

    /// A wall of splats on a grid in a plane parallel to the screen, in front of a jittered one:
    /// every splat of the wall has exactly the depth of the others, so their order is the source
    /// index's, which binning must restore as the sort does.
    @Test(arguments: [1, 2, 3])
    func equalDepthsComeOutInSourceOrder(threads: Int) {
        var cloud = SplatCloud(shDegree: 0)
        var rng = SplitMix(seed: 5)
        for j in 0..<60 {
            for i in 0..<100 {
                let x = Float(i) * 0.006 - 0.3, y = Float(j) * 0.006 - 0.18
                cloud.append(position: Vec3(x, y, -0.2), scale: Vec3(0.006, 0.006, 0.0006), rotation: .identity,
                             opacity: 0.35 + 0.3 * rng.next(), dc: SplatCloud.dcFromColor(Vec3(rng.next(), 0.5, 1 - rng.next())))
            }
        }
        for _ in 0..<4000 {
            let p = Vec3(rng.next() * 0.6 - 0.3, rng.next() * 0.36 - 0.18, -0.3 - 0.2 * rng.next())
            cloud.append(position: p, scale: Vec3(0.008, 0.008, 0.002), rotation: .identity, opacity: 0.8,
                         dc: SplatCloud.dcFromColor(Vec3(0.9, rng.next(), 0.2)))
        }
        let splats = SplatRenderer.prepare(cloud)
        let cams = Self.eyes.map { Self.windowCamera(eye: $0, model: .identity) }
        #expect(Self.compare(splats, cameras: cams, threads: threads) == cams.count - 1)
    }

    /// A camera that turns a little every frame never gets an order (and pays nothing for one).
    @Test func rotatingCameraFallsBackToTheSort() {
        let splats = SplatRenderer.prepare(SplatSceneGenerator.object(count: 8000, shDegree: 0))
        let cams = (0..<4).map { i in
            Self.windowCamera(eye: Self.eyes[i], model: Matrix4.rotation(angle: 0.05 * Float(i), axis: Vec3(0, 1, 0)) * Self.model)
        }
        #expect(Self.compare(splats, cameras: cams, threads: 2) == 0)
    }

    /// A new placement drops the order at once (the frame sorts), and a still one makes it again.
    @Test func newPlacementSortsUntilItHoldsStill() {
        let splats = SplatRenderer.prepare(SplatSceneGenerator.object(count: 8000, shDegree: 0))
        let turned = Matrix4.rotation(angle: 0.3, axis: Vec3(1, 0, 0)) * Self.model
        let cams = [Self.model, Self.model, Self.model, turned, turned, turned].enumerated().map {
            Self.windowCamera(eye: Self.eyes[$0.offset % Self.eyes.count], model: $0.element)
        }
        #expect(Self.compare(splats, cameras: cams, threads: 2) == 4)
    }

    /// The order itself: descending r·p (nearest first), transparent splats left out.
    @Test func orderIsNearestFirstWithoutTransparentSplats() {
        var cloud = SplatCloud(shDegree: 0)
        let zs: [Float] = [-3, -1, -2, -0.5, -4, -1.5]
        for (i, z) in zs.enumerated() {
            cloud.append(position: Vec3(Float(i) * 0.1, 0, z), scale: Vec3(0.01, 0.01, 0.01), rotation: .identity,
                         opacity: i == 4 ? 0.001 : 0.5, dc: .zero)
        }
        let splats = SplatRenderer.prepare(cloud)
        let order = SplatDepthOrder(splats, row: SIMD3(0, 0, 1))   // r·p = z: larger is nearer
        let z = splats.field(.z)
        let ordered = (0..<order.count).map { z[Int(order.slots.base[$0])] }
        #expect(ordered == [-0.5, -1, -1.5, -2, -3])
    }

    /// An assembly refilled with other blocks is another set of splats: its kept order is not reused.
    @Test func reassemblyDropsTheOrder() {
        let a = SplatRenderer.prepare(SplatSceneGenerator.object(count: 3000, shDegree: 0))
        let b = SplatRenderer.prepare(SplatSceneGenerator.object(count: 2000, seed: 7, shDegree: 0))
        let assembly = PreparedSplats(assemblyCapacity: 8, shDegree: 0)
        assembly.assemble([a])
        let row = SIMD3<Float>(0, 0, 1)
        func drawable() -> Int { (0..<assembly.count).filter { assembly.field(.opacity)[$0] >= SplatTunables.alphaMin }.count }
        #expect(assembly.depthOrder(forRow: row) == nil)
        #expect(assembly.depthOrder(forRow: row)?.count == drawable())
        let before = drawable()
        assembly.assemble([a, b])
        #expect(drawable() > before)
        #expect(assembly.depthOrder(forRow: row) == nil)
        #expect(assembly.depthOrder(forRow: row)?.count == drawable())
    }
}
