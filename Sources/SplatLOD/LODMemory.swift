// SplatLOD — LODMemory: the memory drawing a streamed tree needs at a splat budget, computed from
// the types' own footprints (for `info`): the frame's splats prepared — the blocks shown, the
// frame's assembly of them (`StreamedLevels`), the renderer's per-splat buffers — beside the bound
// of the chunk cache that holds the blocks it may show next.
import RenderCore
import SceneIO
import SplatRender

/// What drawing a streamed tree holds at a splat budget (see the file header).
public struct LODMemory: Sendable, Equatable {
    /// The budget asked for (nil: none, every leaf at level 0).
    public let budget: Int?
    /// Splats a frame holds at most: the budget, at most level 0's count, plus a group of 8 of
    /// padding per leaf (as `StreamedLevels` sizes its assembly).
    public let frameSplats: Int
    /// Bytes a frame's splat costs: its block shown, its copy in the frame's assembly (both
    /// `PreparedSplats` at the tree's SH degree) and the renderer's per-splat buffers.
    public let bytesPerSplat: Int
    /// `frameSplats × bytesPerSplat`, bytes.
    public let frameBytes: Int
    /// The chunk cache's bound (`LODOptions.cacheBytes`), bytes: decoded chunks kept beyond those shown.
    public let cacheBytes: Int

    /// The estimate for `sog` under `options` (its budget and cache bound).
    public init(sog: StreamedSOG, options: LODOptions = LODOptions()) {
        self.init(levelZeroSplats: sog.splatCount(level: 0), leaves: sog.nodes.count, shDegree: sog.shDegree,
                  budget: options.budget, cacheBytes: options.cacheBytes)
    }

    public init(levelZeroSplats: Int, leaves: Int, shDegree: Int, budget: Int?, cacheBytes: Int) {
        self.budget = budget
        frameSplats = min(levelZeroSplats, budget ?? Int.max) + 8 * leaves
        let prepared = PreparedSplats.bytes(splats: 1 << 20, shDegree: shDegree) / (1 << 20)
        bytesPerSplat = 2 * prepared + SplatRenderer.bytesPerReservedSplat
        frameBytes = frameSplats * bytesPerSplat
        self.cacheBytes = cacheBytes
    }

    /// The most splats a frame of `sog` may show so that the frame's own splats take at most
    /// half of `cacheBytes` (the chunk cache's bound, which holds what is not shown): what a
    /// governor may ask for, still eye included. At least the coarsest picture, at most level 0.
    public static func ceiling(sog: StreamedSOG, cacheBytes: Int) -> Int {
        let per = LODMemory(levelZeroSplats: 1, leaves: 0, shDegree: sog.shDegree, budget: nil, cacheBytes: cacheBytes).bytesPerSplat
        let whole = sog.splatCount(level: 0), coarsest = sog.splatCount(level: sog.levelCount - 1)
        return min(whole, max(coarsest, cacheBytes / 2 / max(1, per)))
    }

    /// One line: "about 16 MB at the default budget of 50,000 splats (plus up to 1024 MB of cached chunks)".
    public var text: String {
        let at: String
        switch budget {
        case LODOptions.defaultBudget?: at = "at the default budget of \(Self.grouped(LODOptions.defaultBudget)) splats"
        case let n?: at = "at a budget of \(Self.grouped(n)) splats"
        case nil: at = "with no budget (every leaf at level 0)"
        }
        return "about \(Self.megabytes(frameBytes)) MB \(at) (plus up to \(Self.megabytes(cacheBytes)) MB of cached chunks)"
    }

    /// Bytes as whole MB (2^20), rounded up.
    static func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }

    /// 50000 → "50,000".
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
