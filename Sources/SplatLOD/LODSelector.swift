// SplatLOD — LODSelector: which level of detail each leaf of a streamed SOG wants for a camera, under a
// splat budget, and the walk of what is shown towards it (at most one level per leaf per frame).
import Foundation
import RenderCore
import SceneIO

/// Level-of-detail choice for a streamed SOG's leaves. Pure bookkeeping over arrays sized once in
/// `init`: `choose` and `step` allocate nothing. `choose` is O(leaves × levels), times ~16 when the
/// budget binds (the bisection); `step` O(leaves × levels).
///
/// **The heuristic: splats about a pixel apart.**
/// - Level ℓ of leaf n holds c(n,ℓ) splats spread over the leaf's bound. Captured splats lie on
///   surfaces, so their typical spacing is s(n,ℓ) = √(A_n / c(n,ℓ)), A_n the surface area of the
///   leaf's box (model units).
/// - From the eye (in the model's frame) at distance d_n from the box (its nearest point, but at
///   least a tenth of the box's diagonal, so a box around the eye still has a finite spacing) and
///   a focal length of f pixels (the larger of the projection's two), that spacing spans
///   p(n,ℓ) = f·s(n,ℓ)/d_n pixels.
/// - A leaf wants the coarsest level with p ≤ T, T = `pixelThreshold` (1 px): splats about a pixel
///   apart are the finest detail the pixel grid can show, so finer levels add cost and no picture.
///   When no level is that fine (the eye close, or inside the box) it wants its finest level.
/// - A leaf wholly outside the view frustum wants its coarsest level (cheap, and ready when the
///   head turns).
/// - Budget B: when the wanted levels hold more than B splats, T is raised, the same for every
///   leaf in view, to the smallest T′ whose selection fits (bisection on log T′): every leaf is
///   coarsened to the same on-screen spacing, the greedy optimum for that error. Then what the
///   jump between levels left of B is spent: one level finer at a time, for the leaf whose
///   spacing is widest on screen among those whose finer level still fits (until none fits).
///   If even the coarsest levels exceed B, every leaf takes its coarsest.
/// - Visible area (when the caller measured it, `SplatVisibility`): a box's surface says little
///   about how much of a leaf the eye sees — a leaf behind another, or a ground seen at a grazing
///   angle, shows a fraction of it. With V(n) the leaf's visible area (camera pixels², measured
///   by the caller), the on-screen spacing of level ℓ is √(V(n) / c(n,ℓ)) instead, and
///   the same bisection then spreads the budget as splats per *visible* pixel — the optimum of
///   an error V·p² per leaf under the budget. A leaf in view with nothing visible takes its
///   coarsest level. It applies only when the budget binds: below it every leaf keeps the
///   (finer, conservative) box rule.
/// - Level errors (a tree whose every leaf says what each of its levels loses against its
///   finest, `LevelErrorTable`: ours does, splat-transform's does not), with visible areas and
///   a binding budget: the spacing rule treats a smooth leaf and a detailed one alike, so
///   instead the budget goes to what loses most. Leaf n at level ℓ costs
///   E(n,ℓ) = V(n) · e(n,ℓ, S(n)) — its visible pixels times the error per pixel of that level
///   when its box's diagonal spans S(n) = diagonal · f/d pixels — and the choice minimises
///   ΣE under the budget: each leaf takes the level of least E + λ·splats, λ ≥ 0 the smallest
///   whose total fits (bisection), and what is left of the budget goes, one level at a time, to
///   the refinement that saves the most error per splat (`chooseByLevelErrors`). On the
///   playbot at 31,000 splats +0.3 dB front and side (close −0.1), at 125,000 +0.5 to +0.7;
///   the 1M room +0.05 to +0.5, the 4M room −0.14 to +0.17 (Docs/LevelOfDetail.md).
/// - A forced level (`--lod N`) overrides all of this: every leaf wants N (or the usable level
///   nearest to it), whatever the budget.
/// Levels without a usable range (absent from the file, or their chunk missing or failed) are
/// never chosen.
public final class LODSelector {
    /// Leaves and levels.
    public let nodeCount: Int, levelCount: Int
    /// Per leaf: box corners (model space) and surface area.
    private let boxMin: [Vec3], boxMax: [Vec3]
    /// Per (leaf, level), at `n * levelCount + ℓ`: splats (−1: no usable range) and spacing s.
    private var counts: [Int]
    private let spacing: [Float]
    /// Per leaf, this frame: distance factor f/d (pixels per model unit at the leaf) and in-view flag.
    private var pixelsPerUnit: [Float]
    private var inView: [Bool]
    /// Per leaf, this frame: visible area (camera pixels²) when `choose` was given it, else −1.
    private var visible: [Float]
    /// Per leaf: the level it wants (−1: none usable) and the level it shows (−1: nothing yet).
    public private(set) var wanted: [Int]
    public private(set) var shown: [Int]
    /// The threshold the last `choose` settled on (≥ `pixelThreshold` when the budget raised it;
    /// infinity when the budget was spent by level errors, which use no threshold).
    public private(set) var effectiveThreshold: Float = 1

    /// Pixels between neighbouring splats a leaf's level should not exceed.
    public var pixelThreshold: Float = 1

    /// Per leaf: what its levels lose (nil unless every leaf's table came with the file), its
    /// box's diagonal (model units), and this frame's E(n,ℓ) at `n * levelCount + ℓ` (NaN:
    /// unusable).
    private let levelErrors: [LevelErrorTable]?
    private let diagonal: [Float]
    private var errorNow: [Float]
    /// Whether a binding budget with measured visible areas is spent by the leaves' level errors
    /// when the tree has them (else by the spacing rule; tests of that rule turn this off).
    public var spendsByLevelErrors = true
    /// Whether the tree says what its levels lose (`LevelErrorTable`).
    public var hasLevelErrors: Bool { levelErrors != nil }

    /// Sets up the per-leaf tables from the file's metadata. `usableChunk[c]` false marks chunk
    /// `c` as unusable (missing): its ranges are never chosen.
    public init(_ sog: StreamedSOG) {
        nodeCount = sog.nodes.count
        levelCount = sog.levelCount
        boxMin = sog.nodes.map(\.bounds.min)
        boxMax = sog.nodes.map(\.bounds.max)
        var c = [Int](repeating: -1, count: nodeCount * levelCount)
        var s = [Float](repeating: 0, count: nodeCount * levelCount)
        for (n, node) in sog.nodes.enumerated() {
            let e = node.bounds.size
            let area = max(1e-12, 2 * (e.x * e.y + e.y * e.z + e.z * e.x))
            for l in 0..<levelCount {
                if let r = sog.usableRange(node: n, level: l) {
                    c[n * levelCount + l] = r.count
                    s[n * levelCount + l] = r.count > 0 ? (area / Float(r.count)).squareRoot() : .infinity
                }
            }
        }
        counts = c; spacing = s
        let levels = sog.levelCount
        let tables = sog.nodes.compactMap { $0.levelErrors?.levels == levels ? $0.levelErrors : nil }
        levelErrors = tables.count == nodeCount && nodeCount > 0 ? tables : nil
        diagonal = sog.nodes.map(\.bounds.size.length)
        errorNow = [Float](repeating: 0, count: nodeCount * levelCount)
        active = [Int32](repeating: 0, count: nodeCount)
        pixelsPerUnit = [Float](repeating: 0, count: nodeCount)
        inView = [Bool](repeating: true, count: nodeCount)
        visible = [Float](repeating: -1, count: nodeCount)
        wanted = [Int](repeating: -1, count: nodeCount)
        shown = [Int](repeating: -1, count: nodeCount)
        refinedIn = [UInt64](repeating: 0, count: nodeCount)
        screen = [Float](repeating: .nan, count: nodeCount * levelCount)
        finestUsable = [Int](repeating: -1, count: nodeCount)
        coarsestUsable = [Int](repeating: -1, count: nodeCount)
        fillHeap = BinaryHeap(reservingCapacity: nodeCount)
        hull = [Int](repeating: 0, count: max(1, sog.levelCount))
        edgeLambda = [Double](repeating: 0, count: max(1, nodeCount * sog.levelCount))
        edgeAdded = [Int](repeating: 0, count: max(1, nodeCount * sog.levelCount))
        for n in 0..<nodeCount { findUsableEnds(n) }
    }

    /// Splats of leaf `n` at level `l` (−1 when that level is not usable).
    @inline(__always) public func count(_ n: Int, _ l: Int) -> Int { l >= 0 ? counts[n * levelCount + l] : 0 }

    /// Whether leaf `n` has a usable level `l`.
    @inline(__always) public func usable(_ n: Int, _ l: Int) -> Bool { l >= 0 && l < levelCount && counts[n * levelCount + l] >= 0 }

    /// Marks every level whose range lies in chunk `chunk` as unusable (it failed to load).
    public func markUnusable(chunk: Int, in sog: StreamedSOG) {
        for (n, node) in sog.nodes.enumerated() {
            for (l, r) in node.levels.enumerated() where r?.chunk == chunk { counts[n * levelCount + l] = -1 }
            findUsableEnds(n)
        }
        boxRuleChoice = nil
    }

    /// The finest and coarsest usable levels of leaf `n` (nil when none).
    public func finest(_ n: Int) -> Int? { finestUsable[n] >= 0 ? finestUsable[n] : nil }
    public func coarsest(_ n: Int) -> Int? { coarsestUsable[n] >= 0 ? coarsestUsable[n] : nil }

    /// Per leaf: its finest and coarsest usable levels (−1: none), kept by `findUsableEnds`.
    private var finestUsable: [Int], coarsestUsable: [Int]

    private func findUsableEnds(_ n: Int) {
        finestUsable[n] = (0..<levelCount).first { usable(n, $0) } ?? -1
        coarsestUsable[n] = (0..<levelCount).reversed().first { usable(n, $0) } ?? -1
    }

    /// The next usable level from `l` in direction `dir` (+1 coarser, −1 finer), or nil.
    public func next(_ n: Int, from l: Int, _ dir: Int) -> Int? {
        var k = l + dir
        while k >= 0 && k < levelCount { if usable(n, k) { return k }; k += dir }
        return nil
    }

    /// Splats the `shown` levels hold.
    public var shownSplats: Int { (0..<nodeCount).reduce(0) { $0 + max(0, count($1, shown[$1])) } }
    /// Splats the `wanted` levels hold.
    public var wantedSplats: Int { (0..<nodeCount).reduce(0) { $0 + max(0, count($1, wanted[$1])) } }
    /// Whether the last `choose` was limited by its budget: the box rule at `pixelThreshold`
    /// wanted more splats than the budget (false when a level was forced or there was no budget).
    public private(set) var budgetBound = false
    /// The levels the last `choose` would have wanted without its budget (the box rule at
    /// `pixelThreshold`; -1: nothing), and the splats they hold — what a still eye, whose budget
    /// becomes the whole capture, will want. Unchanged by a forced choice.
    public private(set) var unbudgetedWanted: [Int] = []
    public private(set) var unbudgetedSplats = 0

    // MARK: - Choosing

    /// Computes `wanted` for `camera` (whose view maps the model's own frame to camera space).
    /// - Parameters:
    ///   - budget: most splats in all (nil: no budget).
    ///   - forced: a level every leaf wants (nil: the heuristic).
    ///   - visibleArea: per leaf, its visible area (camera pixels², `SplatVisibility`); used only
    ///     when the budget binds (see the type's documentation). nil: the box rule throughout.
    public func choose(camera: Camera, budget: Int?, forced: Int?, visibleArea: [Float]? = nil) {
        precondition(visibleArea == nil || visibleArea!.count == nodeCount, "one visible area per leaf")
        let base = max(1e-6, pixelThreshold)
        let placed = boxRuleChoice.flatMap { $0.camera == camera && $0.threshold == base ? $0.total : nil }
        boxRuleChoice = nil
        for n in 0..<nodeCount { visible[n] = -1 }
        budgetBound = false
        if let forced {
            for n in 0..<nodeCount { wanted[n] = nearestUsable(n, to: forced) ?? -1 }
            effectiveThreshold = pixelThreshold
            return
        }
        var total: Int
        if let placed {
            total = placed                      // `budgetBinds` placed the leaves and chose by the box rule
        } else {
            placeLeaves(camera)
            total = select(threshold: base)
        }
        unbudgetedWanted.removeAll(keepingCapacity: true)
        unbudgetedWanted.append(contentsOf: wanted)
        unbudgetedSplats = total
        effectiveThreshold = base
        if let budget, total > budget {
            budgetBound = true
            if let visibleArea {
                for n in 0..<nodeCount where inView[n] { visible[n] = max(0, visibleArea[n]) }
                if spendsByLevelErrors, levelErrors != nil {
                    chooseByLevelErrors(budget: budget)
                    return
                }
                tabulateScreenSpacings()
            }
            // Smallest threshold whose selection fits: total(t) falls as t grows.
            var lo = log2(base), hi = lo + 1
            var fits = false
            for _ in 0..<64 {                                   // find an upper bracket
                if select(threshold: exp2(hi)) <= budget { fits = true; break }
                lo = hi; hi += 2
                if hi > 140 { break }                            // beyond any finite spacing: all coarsest
            }
            if fits {
                for _ in 0..<14 {                                 // log2 precision 2^-13·bracket
                    let mid = (lo + hi) / 2
                    if select(threshold: exp2(mid)) <= budget { hi = mid } else { lo = mid }
                }
                effectiveThreshold = exp2(hi)
            } else {
                effectiveThreshold = .infinity
            }
            total = select(threshold: effectiveThreshold)
            if effectiveThreshold.isFinite {
                if fillsByScanning { fillByScanning(budget: budget, total: total) } else { fill(budget: budget, total: total) }
            }
        }
    }

    /// Per (leaf, level), at `n * levelCount + ℓ`, this frame: `screenSpacing`, NaN for an
    /// unusable level (so no threshold takes it). Filled by `tabulateScreenSpacings`.
    private var screen: [Float]

    private func tabulateScreenSpacings() {
        for n in 0..<nodeCount {
            for l in 0..<levelCount { screen[n * levelCount + l] = usable(n, l) ? screenSpacing(n, l) : .nan }
        }
    }

    /// Whether `budget` binds for `camera`: whether the levels the box rule wants at
    /// `pixelThreshold` hold more than `budget` splats — what `choose` settles first, without its
    /// search (so a caller that spends a binding budget by visible area chooses once, not twice).
    public func budgetBinds(camera: Camera, budget: Int?) -> Bool {
        guard let budget else { return false }
        for n in 0..<nodeCount { visible[n] = -1 }
        placeLeaves(camera)
        let base = max(1e-6, pixelThreshold), total = select(threshold: base)
        boxRuleChoice = (camera, base, total)
        return total > budget
    }

    /// What the last `budgetBinds` left standing — the leaves placed for `camera` and `wanted` by
    /// the box rule at `threshold`, holding `total` splats — so that the `choose` right after it
    /// for the same camera does not place and select again. Consumed by `choose`; cleared when
    /// levels become unusable.
    private var boxRuleChoice: (camera: Camera, threshold: Float, total: Int)?

    /// Each leaf's pixels per model unit and in-view flag for `camera`, and the screen spacings
    /// they give (`tabulateScreenSpacings`).
    private func placeLeaves(_ camera: Camera) {
        let eye = camera.position
        let fx = Float(camera.width) / 2 * abs(camera.projection[0, 0])
        let fy = Float(camera.height) / 2 * abs(camera.projection[1, 1])
        let f = max(fx, fy)
        let m = camera.projection * camera.view
        for n in 0..<nodeCount {
            let lo = boxMin[n], hi = boxMax[n]
            // Distance from the eye to the box (0 inside).
            let dx = max(lo.x - eye.x, 0, eye.x - hi.x), dy = max(lo.y - eye.y, 0, eye.y - hi.y), dz = max(lo.z - eye.z, 0, eye.z - hi.z)
            // Never nearer than a tenth of the box's diagonal: a leaf around (or touching) the eye
            // then still coarsens when the budget raises the threshold, instead of holding its
            // finest level at any threshold — which made a budget it alone exceeded unreachable
            // and dropped every leaf to its coarsest level (1,873 splats of the playbot up close).
            let d = max((dx * dx + dy * dy + dz * dz).squareRoot(), 0.1 * (hi - lo).length, 1e-9)
            pixelsPerUnit[n] = f.isFinite ? f / d : .infinity
            inView[n] = Self.boxInFrustum(lo, hi, m)
        }
        tabulateScreenSpacings()
    }

    /// Pixels between neighbouring splats of leaf `n` at level `l` on screen this frame: from the
    /// visible area when measured, else from the box's surface and distance.
    @inline(__always) private func screenSpacing(_ n: Int, _ l: Int) -> Float {
        let v = visible[n]
        if v < 0 { return spacing[n * levelCount + l] * pixelsPerUnit[n] }
        let c = counts[n * levelCount + l]
        return v > 0 && c > 0 ? (v / Float(c)).squareRoot() : 0
    }

    /// The choice by level errors (see the type's documentation): E(n,ℓ) tabulated for this
    /// frame; each in-view leaf with something visible takes the level of least E + λ·splats
    /// (ties: the coarser), λ the smallest that fits (bisection on log λ; λ = 0 takes the finest);
    /// then, while a refinement fits, the one that saves the most error per added splat (ties:
    /// lower leaf). Other leaves take their coarsest level.
    private func chooseByLevelErrors(budget: Int) {
        effectiveThreshold = .infinity
        // Leaves in view with something visible choose; the rest take their coarsest.
        activeCount = 0
        var fixed = 0, largest: Float = 0
        for n in 0..<nodeCount {
            guard inView[n] && visible[n] > 0, let table = levelErrors?[n] else {
                wanted[n] = coarsestUsable[n]
                fixed += max(0, count(n, wanted[n]))
                continue
            }
            active[activeCount] = Int32(n); activeCount += 1
            let row = n * levelCount
            let place = LevelErrorTable.place(diagonal[n] * pixelsPerUnit[n])
            for l in 0..<levelCount {
                let e = visible[n] * table.perPixel(level: l, at: place)
                errorNow[row + l] = usable(n, l) ? e : .nan
                if usable(n, l) { largest = max(largest, e) }
            }
        }
        guard pickByLevelErrors(lambda: 0) + fixed > budget else { return }
        let lambda = findsLambdaByBisection ? nil : lambdaFromBreakpoints(budget: budget - fixed)
        if lambda == nil { bisections += 1 }
        var total = pickByLevelErrors(lambda: lambda ?? lambdaByBisection(budget: budget - fixed, largest: largest)) + fixed
        // Fill: the best saving per splat among refinements that still fit.
        while true {
            var bestLeaf = -1, bestLevel = -1
            var bestGain: Float = 0
            for k in 0..<activeCount {
                let n = Int(active[k])
                guard let finer = next(n, from: wanted[n], -1) else { continue }
                let added = count(n, finer) - count(n, wanted[n])
                guard total + added <= budget else { continue }
                let saved = errorNow[n * levelCount + wanted[n]] - errorNow[n * levelCount + finer]
                let gain = saved / Float(max(added, 1))
                if gain > bestGain { bestGain = gain; bestLeaf = n; bestLevel = finer }
            }
            guard bestLeaf >= 0 else { break }
            total += count(bestLeaf, bestLevel) - count(bestLeaf, wanted[bestLeaf])
            wanted[bestLeaf] = bestLevel
        }
    }

    /// The smallest λ (within 2^-21 in log₂) whose `pickByLevelErrors` fits `budget`, by bisection
    /// on log λ: λ above every E takes each leaf's coarsest (each finer level holds at least one
    /// splat more). 24 picks over every choosing leaf and level: the reference for
    /// `lambdaFromBreakpoints`.
    private func lambdaByBisection(budget: Int, largest: Float) -> Float {
        var hi = max(largest, 1e-20) * 2, lo = hi * 1e-12
        if pickByLevelErrors(lambda: hi) <= budget {
            for _ in 0..<22 {
                let mid = (lo * hi).squareRoot()
                if pickByLevelErrors(lambda: mid) > budget { lo = mid } else { hi = mid }
            }
        }
        return hi
    }

    /// The same λ found from the breakpoints where the choice changes, without picking again and
    /// again: a leaf takes the level of least E + λ·splats, which as λ falls walks down the lower
    /// convex hull of its (splats, E) points, changing level at each hull edge's slope (error
    /// saved per splat added). The total is the coarsest hull points' plus every edge steeper
    /// than λ; the λ sought is the steepest edge whose crossing (with those as steep) passes the
    /// budget — found by a weighted quickselect over the edges, O(leaves × levels) a frame where
    /// the bisection took 24 times that (on the 16M room's 16,384 leaves it was a fifth of the
    /// frame). Returned just above the edge (ties go coarser, as the bisection's λ above the
    /// threshold had them), checked by one pick; nil when that pick does not fit (rounding), and
    /// the bisection decides.
    private func lambdaFromBreakpoints(budget: Int) -> Float? {
        let (levels, leaves) = (levelCount, activeCount)
        let found: Double? = counts.withUnsafeBufferPointer { counts in
            errorNow.withUnsafeBufferPointer { errors in
                active.withUnsafeBufferPointer { active in
                    hull.withUnsafeMutableBufferPointer { hull in
                        edgeLambda.withUnsafeMutableBufferPointer { slopes in
                            edgeAdded.withUnsafeMutableBufferPointer { added in
                                Self.steepestEdgeOverBudget(budget: budget, counts: counts, errors: errors, levels: levels,
                                                            active: UnsafeBufferPointer(rebasing: active[0..<leaves]),
                                                            hull: hull, slopes: slopes, added: added)
                            }
                        }
                    }
                }
            }
        }
        guard let edge = found else { return nil }
        let lambda = Float(edge * (1 + 4e-6))
        return pickByLevelErrors(lambda: lambda) <= budget ? lambda : nil
    }

    /// `lambdaFromBreakpoints`' search over plain buffers: the choosing leaves' hull edges into
    /// `slopes`/`added`, then the weighted quickselect. nil when even the coarsest hull points
    /// pass `budget`, or when every edge fits.
    private static func steepestEdgeOverBudget(budget: Int, counts: UnsafeBufferPointer<Int>, errors: UnsafeBufferPointer<Float>,
                                               levels: Int, active: UnsafeBufferPointer<Int32>, hull: UnsafeMutableBufferPointer<Int>,
                                               slopes: UnsafeMutableBufferPointer<Double>, added: UnsafeMutableBufferPointer<Int>) -> Double? {
        @inline(__always) func slope(_ row: Int, _ a: Int, _ b: Int) -> Double {
            (Double(errors[row + a]) - Double(errors[row + b])) / Double(counts[row + b] - counts[row + a])
        }
        var edges = 0, base = 0
        for leaf in active {
            let row = Int(leaf) * levels
            // The lower hull from the coarsest level (fewest splats) towards the finest, kept as
            // a stack of levels with strictly falling slopes.
            var top = 0
            for l in stride(from: levels - 1, through: 0, by: -1) where counts[row + l] >= 0 {
                let c = counts[row + l], e = errors[row + l]
                guard !e.isNaN else { continue }
                // As many splats as a hull point or fewer (a finer level never should): the less
                // error wins, ties the coarser. More splats and no less error: never chosen.
                var dominated = false
                while top > 0 {
                    let last = hull[top - 1]
                    if c <= counts[row + last] {
                        if e < errors[row + last] { top -= 1 } else { dominated = true; break }
                    } else {
                        dominated = !(e < errors[row + last]); break
                    }
                }
                if dominated { continue }
                while top >= 2, slope(row, hull[top - 2], hull[top - 1]) <= slope(row, hull[top - 1], l) { top -= 1 }
                hull[top] = l; top += 1
            }
            guard top > 0 else { continue }
            base += counts[row + hull[0]]
            for h in 1..<max(1, top) {
                slopes[edges] = slope(row, hull[h - 1], hull[h])
                added[edges] = counts[row + hull[h]] - counts[row + hull[h - 1]]
                edges += 1
            }
        }
        guard base <= budget else { return nil }                   // even the coarsest pass: the bisection's case
        // Weighted quickselect: the largest edge slope x with base + Σ_{slope ≥ x} added > budget.
        var lo = 0, hi = edges, above = base
        while lo < hi {
            let pivot = slopes[lo + (hi - lo) / 2]
            // Three-way partition of [lo, hi): steeper | equal | shallower.
            var lt = lo, i = lo, gt = hi
            while i < gt {
                let v = slopes[i]
                if v > pivot { slopes.swapAt(i, lt); added.swapAt(i, lt); lt += 1; i += 1 }
                else if v < pivot { gt -= 1; slopes.swapAt(i, gt); added.swapAt(i, gt) }
                else { i += 1 }
            }
            var steeper = 0, equal = 0
            for j in lo..<lt { steeper += added[j] }
            for j in lt..<gt { equal += added[j] }
            if above + steeper > budget { hi = lt }                // the answer is steeper
            else if above + steeper + equal > budget { return pivot }
            else { above += steeper + equal; lo = gt }             // everything this steep fits
        }
        return nil                                                 // every edge fits
    }

    /// Scratch for `lambdaFromBreakpoints`, sized in `init`: one leaf's hull, and every edge's
    /// slope and splats added.
    private var hull: [Int]
    private var edgeLambda: [Double], edgeAdded: [Int]
    /// Tests: λ by bisection only (`lambdaByBisection`); and how often the bisection decided.
    var findsLambdaByBisection = false
    private(set) var bisections = 0

    /// Leaves choosing by level errors this frame (`active[0..<activeCount]`).
    private var active: [Int32]
    private var activeCount = 0

    /// Each choosing leaf's level of least E + `lambda`·splats (ties: the coarser) into `wanted`;
    /// returns their total.
    private func pickByLevelErrors(lambda: Float) -> Int {
        var total = 0
        for k in 0..<activeCount {
            let n = Int(active[k]), row = n * levelCount
            var best = coarsestUsable[n]
            var least = Float.infinity
            for l in stride(from: levelCount - 1, through: 0, by: -1) where counts[row + l] >= 0 {
                let score = errorNow[row + l] + lambda * Float(counts[row + l])
                if score < least { least = score; best = l }
            }
            wanted[n] = best
            total += max(0, counts[row + best])
        }
        return total
    }

    /// Spends what the threshold's selection left of `budget` (`total` taken): repeatedly
    /// refines by one level the in-view leaf whose wanted level's spacing is widest on screen
    /// among those whose next finer level still fits — what a slightly larger threshold step
    /// would have refined, and then the rest (a leaf that shows only a sliver is still drawn
    /// better for it, and a budget is what the frame may draw). Leaves that show nothing are
    /// left at their coarsest. The leaves wait in a max-heap by spacing (ties: lower index); one
    /// whose finer level does not fit now never will (the total only grows) and leaves the heap,
    /// so a frame costs O((leaves + refinements) · log leaves). `fillByScanning` is the same
    /// choice by scanning every leaf per refinement, the test's reference.
    private func fill(budget: Int, total: Int) {
        var total = total
        fillHeap.removeAll()
        for n in 0..<nodeCount where inView[n] && wanted[n] >= 0 && visible[n] != 0 {
            pushFill(screen[n * levelCount + wanted[n]], n)
        }
        while let n = fillHeap.pop().map({ Int($0.leaf) }) {
            guard let f = next(n, from: wanted[n], -1), total + count(n, f) - count(n, wanted[n]) <= budget else { continue }
            total += count(n, f) - count(n, wanted[n])
            wanted[n] = f
            pushFill(screen[n * levelCount + f], n)
        }
    }

    /// `fill` by scanning every leaf for each refinement, O(leaves) per refinement.
    func fillByScanning(budget: Int, total: Int) {
        var total = total
        while true {
            var best = -1, bestLevel = -1, widest: Float = -1
            for n in 0..<nodeCount where inView[n] && wanted[n] >= 0 && visible[n] != 0 {
                guard let f = next(n, from: wanted[n], -1), total + count(n, f) - count(n, wanted[n]) <= budget else { continue }
                let p = screenSpacing(n, wanted[n])
                if p > widest { widest = p; best = n; bestLevel = f }
            }
            guard best >= 0 else { return }
            total += count(best, bestLevel) - count(best, wanted[best])
            wanted[best] = bestLevel
        }
    }

    /// Tests: `choose` fills the budget by `fillByScanning` instead.
    var fillsByScanning = false

    /// `fill`'s heap of leaves, widest spacing first (ties: lower index), reserved for every leaf in `init`.
    private var fillHeap: BinaryHeap<WidestLeaf>

    private struct WidestLeaf: HeapOrdered {
        var spacing: Float, leaf: Int32
        static func before(_ a: WidestLeaf, _ b: WidestLeaf) -> Bool { a.spacing > b.spacing || (a.spacing == b.spacing && a.leaf < b.leaf) }
    }

    private func pushFill(_ spacing: Float, _ n: Int) {
        guard !spacing.isNaN else { return }  // never the widest, as in `fillByScanning`
        fillHeap.push(WidestLeaf(spacing: spacing, leaf: Int32(n)))
    }

    /// Fills `wanted` for one threshold (pixels) and returns its splat total.
    @discardableResult
    private func select(threshold t: Float) -> Int {
        var total = 0
        for n in 0..<nodeCount {
            var pick = -1
            if !inView[n] || t == .infinity || visible[n] == 0 {
                pick = coarsestUsable[n]
            } else {
                // The coarsest level whose spacing projects to ≤ t pixels (NaN, unusable, never
                // does), else the finest usable.
                var within = -1
                let row = n * levelCount
                for l in 0..<levelCount where screen[row + l] <= t { within = l }
                pick = within >= 0 ? within : finestUsable[n]
            }
            wanted[n] = pick
            total += max(0, count(n, pick))
        }
        return total
    }

    /// The usable level nearest `level` (ties: the coarser), or nil when the leaf has none.
    public func nearestUsable(_ n: Int, to level: Int) -> Int? {
        for d in 0...levelCount {
            if usable(n, level + d) { return level + d }
            if usable(n, level - d) { return level - d }
        }
        return nil
    }

    /// True unless the box lies wholly outside one of the frustum's side or near planes
    /// (`m` = projection·view, model → clip; plane tests in homogeneous coordinates hold for
    /// points behind the eye too). The far plane is not tested: the splat renderer draws beyond it.
    static func boxInFrustum(_ lo: Vec3, _ hi: Vec3, _ m: Matrix4) -> Bool {
        // Rows of m.
        let r0 = Vec4(m[0, 0], m[0, 1], m[0, 2], m[0, 3]), r1 = Vec4(m[1, 0], m[1, 1], m[1, 2], m[1, 3])
        let r2 = Vec4(m[2, 0], m[2, 1], m[2, 2], m[2, 3]), r3 = Vec4(m[3, 0], m[3, 1], m[3, 2], m[3, 3])
        @inline(__always) func outside(_ plane: Vec4) -> Bool {
            // The box corner furthest along the plane's normal: if even it is outside, all are.
            let p = Vec3(plane.x >= 0 ? hi.x : lo.x, plane.y >= 0 ? hi.y : lo.y, plane.z >= 0 ? hi.z : lo.z)
            return plane.x * p.x + plane.y * p.y + plane.z * p.z + plane.w < 0
        }
        return !(outside(r3 + r0) || outside(r3 - r0) || outside(r3 + r1) || outside(r3 - r1) || outside(r3 + r2))
    }

    // MARK: - Stepping

    /// Moves `shown` one step towards `wanted` for every leaf (see `LODSplatScene` for the rules):
    /// - nothing shown yet: the loaded usable level nearest the wanted one (ties: coarser);
    /// - wanted coarser: the next coarser usable level, once loaded;
    /// - wanted finer: the next finer usable level, once loaded and while the total stays within
    ///   `budget` (leaves whose shown level is furthest from their wanted one refine first).
    /// A shown level that is no longer loaded (its chunk evicted or failed) counts as nothing shown.
    /// - Parameters:
    ///   - loadedLevels: whether leaf n's level l is in memory now, at `n * levelCount + l`.
    ///   - immediate: jump straight to `wanted` where it is loaded (first frame of `render`).
    ///   - coarsenAtOnce: leaves finer than wanted jump straight to it where it is loaded (the
    ///     budget fell well below what is shown: the frame-time governor shedding splats, or the
    ///     eye moving after a still eye's whole picture — response before smoothness).
    /// - Returns: whether `shown` changed.
    @discardableResult
    public func step(budget: Int?, immediate: Bool = false, coarsenAtOnce: Bool = false, loadedLevels: [Bool]) -> Bool {
        precondition(loadedLevels.count == nodeCount * levelCount)
        @inline(__always) func loaded(_ n: Int, _ l: Int) -> Bool { l >= 0 && l < levelCount && loadedLevels[n * levelCount + l] }
        var changed = false
        // Coarsening (and first picks) first: they free budget for refinements.
        for n in 0..<nodeCount {
            let w = wanted[n], s = shown[n]
            if s >= 0 && !(usable(n, s) && loaded(n, s)) { shown[n] = -1; changed = true }
            if w < 0 { if shown[n] >= 0 { shown[n] = -1; changed = true }; continue }
            if immediate && loaded(n, w) && shown[n] != w { shown[n] = w; changed = true; continue }
            if coarsenAtOnce && shown[n] >= 0 && shown[n] < w && loaded(n, w) { shown[n] = w; changed = true; continue }
            if shown[n] < 0 {
                if let pick = nearestLoaded(n, to: w, loadedLevels: loadedLevels) { shown[n] = pick; changed = true }
            } else if shown[n] < w, let c = next(n, from: shown[n], +1), loaded(n, c) {
                shown[n] = c; changed = true
            }
        }
        // Refinements, most needed first (the largest gap between shown and wanted), one level per
        // leaf, while the total stays within the budget.
        var total = shownSplats
        stepID &+= 1
        for gap in stride(from: levelCount - 1, to: 0, by: -1) {      // largest gaps first: O(levels × leaves)
            for n in 0..<nodeCount where wanted[n] >= 0 && shown[n] - wanted[n] == gap && refinedIn[n] != stepID {
                refinedIn[n] = stepID
                guard let f = next(n, from: shown[n], -1), loaded(n, f) else { continue }
                let extra = count(n, f) - count(n, shown[n])
                if let budget, total + extra > budget { continue }
                shown[n] = f; total += extra; changed = true
            }
        }
        return changed
    }


    /// Per leaf: the `step` that last gave it its one refinement chance (stored, not lazy: a lazy
    /// var's get-modify-set would copy the array on every write).
    private var refinedIn: [UInt64]
    private var stepID: UInt64 = 0

    /// The loaded usable level nearest `level` (ties: the coarser).
    private func nearestLoaded(_ n: Int, to level: Int, loadedLevels: [Bool]) -> Int? {
        for d in 0...levelCount {
            if usable(n, level + d) && loadedLevels[n * levelCount + level + d] { return level + d }
            if usable(n, level - d) && loadedLevels[n * levelCount + level - d] { return level - d }
        }
        return nil
    }
}
