// PreparedSplats — a compact, render-ready copy of a SplatCloud, made once per scene.
//
// Structure of arrays in groups of 8 splats, so that preprocessing runs 8 splats per SIMD
// vector: `fields` holds `fieldCount` Float arrays of `paddedCount` entries (position,
// opacity, the view-independent 3D covariance Σ = R·S·Sᵀ·Rᵀ, the degree-0 colour
// C0·dc + 0.5, and τ = ln(255·opacity) — the largest −power at which the splat still reaches
// alpha 1/255, used to tighten its pixel rectangle). Higher SH coefficients are Float16,
// transposed per group: coefficient j = k·3 + channel of splat 8g + lane sits at
// `rest[(g · restCount·3 + j) · 8 + lane]`. Padding splats have opacity 0 (always culled).
// Slots are in Morton order of the centres, not the cloud's order (`sourceIndex` maps back):
// the renderer reads a tile's records by slot, and nearby splats then share cache lines.
import CSIMD
import Foundation
import RenderCore
import Workers

/// A `SplatCloud` converted for `SplatRenderer`: world-space covariances, pre-folded base
/// colour and half-precision SH, laid out for 8-wide SIMD. A prepared cloud (`init(_:)`,
/// `init(_:range:shDegree:)`) is immutable after creation and safe to share between renderers.
///
/// An *assembly* (`init(assemblyCapacity:shDegree:)`) is instead a reusable frame buffer that
/// `assemble(_:)` refills, by plain copies, from prepared blocks — how a level-of-detail scene
/// builds each frame's splats from the ranges it chose without re-preparing or reallocating
/// (it grows only when a selection needs more room). Its owner refills it between renders only.
public final class PreparedSplats {
    /// Field indices into `fields` (each an array of `paddedCount` Floats).
    enum Field: Int, CaseIterable {
        case x, y, z, opacity, sxx, sxy, sxz, syy, syz, szz, red, green, blue, tau
    }
    static let fieldCount = Field.allCases.count

    /// Number of splat slots the renderer walks. For an assembly this includes the opacity-0
    /// padding that rounds each block up to a multiple of 8 (culled at once, never drawn).
    public private(set) var count: Int
    /// `count` rounded up to a multiple of 8.
    private(set) var paddedCount: Int
    /// SH degree used for colour (0…3).
    public let shDegree: Int
    /// Rest coefficients per channel (0, 3, 8 or 15).
    public let restCount: Int
    /// Axis-aligned bounds of the centres (world space, metres).
    public private(set) var bounds: Bounds
    private(set) var fields: UnsafeMutablePointer<Float>
    /// Floats between consecutive fields (`paddedCount`, at least 8; an assembly's capacity).
    private(set) var fieldStride: Int
    private(set) var rest: UnsafeMutablePointer<Float16>
    /// For each slot, the splat's index in the source it was prepared from (the cloud range,
    /// or for an assembly the concatenation of its blocks' sources): slots are in spatial
    /// order, and the renderer breaks depth ties by this index, as the reference does.
    private(set) var sourceIndex: UnsafeMutablePointer<UInt32>
    /// Bumped by every `assemble`: what a kept depth order (`depthOrder(forRow:)`) was made from.
    private(set) var generation = 0
    /// The depth order kept for the last view rotation, and the rotation asked for last.
    let depthOrderState = Locked(DepthOrderState())
    /// Whether renderers may keep a depth order for these splats (`depthOrder(forRow:)`). A
    /// level-of-detail assembly, whose contents change as levels step in and budgets move, turns
    /// it off: rebuilding the order each time would allocate and sort in the frame; its frames
    /// sort per tile as before.
    public var keepsDepthOrder = true
    /// What holds this block's storage when it is not its own: the mapped file it was read from
    /// (`PreparedBlockFile`), kept alive as long as the block. Nil: `fields`, `rest` and
    /// `sourceIndex` were allocated here and are freed with it.
    private let storageOwner: AnyObject?

    /// Converts `cloud` (O(n log n), single-threaded; ~0.4 s per million degree-3 splats in a
    /// release build, ~¼ of it the spatial sort).
    public convenience init(_ cloud: SplatCloud) {
        self.init(cloud, range: 0..<cloud.count)
    }

    /// Converts splats `range` of `cloud` (O(range.count)). SH rest coefficients are taken at
    /// `shDegree` (default: the cloud's, at most 3): bands the cloud lacks are zero.
    /// - Precondition: `range` lies inside the cloud.
    public init(_ cloud: SplatCloud, range: Range<Int>, shDegree: Int? = nil) {
        precondition(range.lowerBound >= 0 && range.upperBound <= cloud.count, "range outside the cloud")
        storageOwner = nil
        count = range.count
        paddedCount = (count + 7) / 8 * 8
        self.shDegree = min(3, max(0, shDegree ?? cloud.shDegree))   // degree 4: bands 0–3, the first 15 of each splat's 24
        restCount = SplatCloud.restCount(degree: self.shDegree)
        var b = Bounds.empty
        for i in range { b = b.including(cloud.positions[i]) }
        bounds = b
        let total = max(8, paddedCount)
        fieldStride = total
        let order = Self.spatialOrder(cloud, range: range, bounds: b)
        sourceIndex = .allocate(capacity: total)
        for i in 0..<total { sourceIndex[i] = i < count ? order[i] : UInt32(truncatingIfNeeded: i) }
        fields = .allocate(capacity: Self.fieldCount * total)
        fields.initialize(repeating: 0, count: Self.fieldCount * total)
        rest = .allocate(capacity: max(1, paddedCount * restCount * 3))
        rest.initialize(repeating: 0, count: max(1, paddedCount * restCount * 3))
        let f = { (k: Field) in self.fields + k.rawValue * total }
        let (px, py, pz, op) = (f(.x), f(.y), f(.z), f(.opacity))
        let (sxx, sxy, sxz, syy, syz, szz) = (f(.sxx), f(.sxy), f(.sxz), f(.syy), f(.syz), f(.szz))
        let (red, green, blue, tau) = (f(.red), f(.green), f(.blue), f(.tau))
        let srcRest = cloud.shRestCount, k3 = restCount * 3, copied = min(k3, srcRest * 3)
        let base = range.lowerBound
        // The loop reads the cloud in spatial order, so each of a splat's ~8 cache lines
        // (position, scale, rotation, opacity, colour, SH) is a DRAM miss: prefetching them
        // `ahead` splats early overlaps the misses (fill of a degree-3 million: 725 -> 280 ms).
        let ahead = 12
        @inline(__always) func prefetch(_ i: Int, _ sr: UnsafeBufferPointer<Float>) {
            let src = base + Int(order[i])
            cloud.positions.withUnsafeBufferPointer { csimd_prefetch($0.baseAddress! + src) }
            cloud.scales.withUnsafeBufferPointer { csimd_prefetch($0.baseAddress! + src) }
            cloud.rotations.withUnsafeBufferPointer { csimd_prefetch($0.baseAddress! + src) }
            cloud.opacities.withUnsafeBufferPointer { csimd_prefetch($0.baseAddress! + src) }
            cloud.dc.withUnsafeBufferPointer { csimd_prefetch($0.baseAddress! + src) }
            let restBytes = srcRest * 3 * 4
            if restBytes > 0 {
                let r = UnsafeRawPointer(sr.baseAddress! + src * srcRest * 3)
                var o = 0
                while o < restBytes { csimd_prefetch(r + o); o += 64 }
                csimd_prefetch(r + restBytes - 1)
            }
        }
        cloud.shRest.withUnsafeBufferPointer { sr in
            for i in 0..<min(ahead, count) { prefetch(i, sr) }
            for i in 0..<count {
                if i + ahead < count { prefetch(i + ahead, sr) }
                let src = base + Int(order[i])
                let p = cloud.positions[src], s = cloud.scales[src]
                px[i] = p.x; py[i] = p.y; pz[i] = p.z
                op[i] = cloud.opacities[src]
                let (c0, c1, c2) = cloud.rotations[src].normalized.rotationColumns
                // M = R·S (columns scaled); Σ = M·Mᵀ.
                let m0 = c0 * s.x, m1 = c1 * s.y, m2 = c2 * s.z
                func sig(_ a: Int, _ b: Int) -> Float { m0[a] * m0[b] + m1[a] * m1[b] + m2[a] * m2[b] }
                sxx[i] = sig(0, 0); sxy[i] = sig(0, 1); sxz[i] = sig(0, 2)
                syy[i] = sig(1, 1); syz[i] = sig(1, 2); szz[i] = sig(2, 2)
                let dc = cloud.dc[src]
                red[i] = SphericalHarmonics.c0 * dc.x + 0.5
                green[i] = SphericalHarmonics.c0 * dc.y + 0.5
                blue[i] = SphericalHarmonics.c0 * dc.z + 0.5
                tau[i] = Self.alphaExponent(opacity: op[i])
                let group = i / 8, lane = i % 8
                for j in 0..<copied {  // j = k·3 + c, the cloud's own (channel innermost) order
                    let v = sr[src * srcRest * 3 + j]
                    rest[(group * k3 + j) * 8 + lane] = Float16(min(max(v, -65504), 65504))
                }
            }
        }
    }

    /// Indices `0..<range.count` (relative to `range`) in Morton (Z-curve) order of the
    /// centres on a 1024³ grid over `bounds`, ties in index order. Splats near each other in
    /// space — and so on screen — get nearby slots, so the blender's reads by slot stay in
    /// cache. O(n log n), at preparation only.
    static func spatialOrder(_ cloud: SplatCloud, range: Range<Int>, bounds: Bounds) -> [UInt32] {
        MortonOrder.indices(cloud.positions[range], bounds: bounds)
    }

    /// An empty assembly with room for `assemblyCapacity` splat slots (it grows on demand).
    public init(assemblyCapacity: Int, shDegree: Int) {
        storageOwner = nil
        count = 0; paddedCount = 0
        self.shDegree = min(3, max(0, shDegree))
        restCount = SplatCloud.restCount(degree: self.shDegree)
        bounds = .empty
        fieldStride = max(8, (assemblyCapacity + 7) / 8 * 8)
        fields = .allocate(capacity: Self.fieldCount * fieldStride)
        rest = .allocate(capacity: max(1, fieldStride * restCount * 3))
        sourceIndex = .allocate(capacity: fieldStride)
    }

    /// A prepared block over storage that `owner` keeps alive (a mapped file): `fields` holds
    /// `fieldCount` arrays of `stride` Floats, `rest` `paddedCount·restCount·3` half floats (at
    /// least 1), `sourceIndex` `stride` indices, exactly as `init(_:range:shDegree:)` lays them out.
    /// Never written through: the storage may be read-only.
    /// - Precondition: `count ≤ paddedCount = count rounded up to 8 ≤ stride`, `stride = max(8, paddedCount)`.
    init(storageOf owner: AnyObject, fields: UnsafeMutablePointer<Float>, rest: UnsafeMutablePointer<Float16>,
         sourceIndex: UnsafeMutablePointer<UInt32>, count: Int, shDegree: Int, bounds: Bounds) {
        storageOwner = owner
        self.count = count
        paddedCount = (count + 7) / 8 * 8
        self.shDegree = min(3, max(0, shDegree))
        restCount = SplatCloud.restCount(degree: self.shDegree)
        self.bounds = bounds
        fieldStride = max(8, paddedCount)
        self.fields = fields; self.rest = rest; self.sourceIndex = sourceIndex
    }

    /// Bytes this object holds (fields and SH), for cache accounting.
    public var bytes: Int { Self.bytes(stride: fieldStride, restCount: restCount) }

    /// Bytes a prepared copy of `splats` splats at `shDegree` (bands kept: at most 3) holds, as
    /// `bytes` counts them: 14 floats, 3·rest half floats and a source index a splat, in groups of 8.
    public static func bytes(splats: Int, shDegree: Int) -> Int {
        bytes(stride: max(8, (max(0, splats) + 7) / 8 * 8), restCount: SplatCloud.restCount(degree: min(3, max(0, shDegree))))
    }

    static func bytes(stride: Int, restCount: Int) -> Int { fieldCount * stride * 4 + max(1, stride * restCount * 3) * 2 + stride * 4 }

    /// Splat slots an assembly holds without growing.
    public var capacity: Int { fieldStride }

    /// Makes room in this assembly for `n` splat slots, keeping what it holds (so it may be drawn
    /// again unchanged). `prefault`: when it grew, its new storage's pages are faulted in on a
    /// background thread (`MemoryPrefault`), so that the assembly that first fills it does not pay
    /// for them (a still eye's whole 4M room: ~580 MB with SH 3).
    public func reserveAssembly(_ n: Int, prefault: Bool = false) {
        guard n > fieldStride else { return }
        grow(toSlots: n, keeping: paddedCount)
        if prefault {
            MemoryPrefault.populateInBackground([
                (Int(bitPattern: fields), Self.fieldCount * fieldStride * MemoryLayout<Float>.stride),
                (Int(bitPattern: rest), max(1, fieldStride * restCount * 3) * MemoryLayout<Float16>.stride),
                (Int(bitPattern: sourceIndex), fieldStride * MemoryLayout<UInt32>.stride)])
        }
    }

    /// New storage for at least `n` slots (and at least 1.5× the old), its first `keeping` slots
    /// copied over.
    private func grow(toSlots n: Int, keeping: Int) {
        precondition(storageOwner == nil, "a block over mapped storage never grows")
        let newStride = max((n + 7) / 8 * 8, fieldStride + fieldStride / 2 / 8 * 8)
        let k3 = restCount * 3
        let newFields = UnsafeMutablePointer<Float>.allocate(capacity: Self.fieldCount * newStride)
        let newRest = UnsafeMutablePointer<Float16>.allocate(capacity: max(1, newStride * k3))
        let newSource = UnsafeMutablePointer<UInt32>.allocate(capacity: newStride)
        if keeping > 0 {
            for f in 0..<Self.fieldCount { (newFields + f * newStride).update(from: fields + f * fieldStride, count: keeping) }
            if k3 > 0 { newRest.update(from: rest, count: keeping * k3) }
            newSource.update(from: sourceIndex, count: keeping)
        }
        fields.deallocate(); rest.deallocate(); sourceIndex.deallocate()
        fields = newFields; rest = newRest; sourceIndex = newSource
        fieldStride = newStride
    }

    /// Refills this assembly with `blocks`, one after the other, each padded to a multiple of 8
    /// slots (their padding has opacity 0): `count` becomes the sum of their `paddedCount`s. Plain
    /// memory copies, O(total); grows (reallocates, 1.5× at least) only when the total exceeds
    /// `capacity`, so a new selection of no more splats allocates nothing. (An array, not any
    /// collection: unspecialised generic iteration allocates for every element it reads.)
    /// - Precondition: every block has this assembly's SH degree.
    public func assemble(_ blocks: [PreparedSplats]) {
        let total = blocks.reduce(0) { $0 + $1.paddedCount }
        if total > fieldStride { grow(toSlots: total, keeping: 0) }
        let k3 = restCount * 3
        var at = 0
        var b = Bounds.empty
        for block in blocks {
            precondition(block.restCount == restCount, "assembled blocks must share the SH degree")
            let n = block.paddedCount
            guard n > 0 else { continue }
            for f in 0..<Self.fieldCount {
                (fields + f * fieldStride + at).update(from: block.fields + f * block.fieldStride, count: n)
            }
            if k3 > 0 { (rest + at * k3).update(from: block.rest, count: n * k3) }
            for i in 0..<n { sourceIndex[at + i] = block.sourceIndex[i] &+ UInt32(truncatingIfNeeded: at) }
            if !block.bounds.isEmpty { b = b.including(block.bounds.min).including(block.bounds.max) }
            at += n
        }
        count = at
        paddedCount = at
        bounds = b
        generation += 1
    }

    /// Field `k`'s `count` Floats.
    func field(_ k: Field) -> UnsafeMutablePointer<Float> { fields + k.rawValue * fieldStride }

    /// ln(255·opacity) rounded up slightly (0 when opacity < 1/255): pixels whose exponent
    /// is below −τ have alpha < 1/255 and are skipped by the contract anyway.
    @inline(__always)
    static func alphaExponent(opacity: Float) -> Float {
        guard opacity >= SplatTunables.alphaMin else { return 0 }
        return Float(log(255 * Double(opacity))) * (1 + 1e-5) + 1e-4
    }

    deinit {
        guard storageOwner == nil else { return }
        fields.deallocate()
        rest.deallocate()
        sourceIndex.deallocate()
    }
}
