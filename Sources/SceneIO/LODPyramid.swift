// SceneIO — LODPyramid: splats in levels of detail grouped into spatial leaves, in memory — what a
// streamed SOG holds (`StreamedSOG` reads one, `StreamedSOGWriter` writes one).
import RenderCore

/// Levels of detail of one capture, leaf by leaf.
///
/// `levels[0]` is the finest (the capture itself); each level's splats are stored leaf by leaf,
/// so leaf `i` owns the contiguous range `leaves[i].ranges[l]` of `levels[l]`. A leaf's range may
/// be empty at coarse levels. `tree` arranges the leaves in a binary tree of boxes.
public struct LODPyramid: Sendable {
    /// A leaf: its box (the extents of its splats' centres ± 3σ, model space) and, per level,
    /// the splat indices it owns.
    public struct Leaf: Sendable, Equatable {
        public var bounds: Bounds
        public var ranges: [Range<Int>]
        /// What each level loses against the finest, at each on-screen size (`LevelErrorTable`);
        /// nil when not measured.
        public var levelErrors: LevelErrorTable?
        public init(bounds: Bounds, ranges: [Range<Int>], levelErrors: LevelErrorTable? = nil) {
            self.bounds = bounds; self.ranges = ranges; self.levelErrors = levelErrors
        }
    }

    /// The tree over the leaves (indices into `leaves`).
    public indirect enum Node: Sendable, Equatable {
        case leaf(Int)
        case split(Node, Node)
    }

    public var levels: [SplatCloud]
    public var leaves: [Leaf]
    public var tree: Node

    public init(levels: [SplatCloud], leaves: [Leaf], tree: Node) {
        self.levels = levels; self.leaves = leaves; self.tree = tree
    }

    /// Splats per level.
    public var counts: [Int] { levels.map(\.count) }
}
