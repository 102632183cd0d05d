/// An axis-aligned bounding box in whatever space its points live in.
public struct Bounds: Equatable, Sendable {
    /// Smallest corner.
    public var min: Vec3
    /// Largest corner.
    public var max: Vec3

    /// A box from its corners.
    public init(min: Vec3, max: Vec3) { self.min = min; self.max = max }

    /// The empty box (min = +inf, max = −inf); `including` grows it.
    public static let empty = Bounds(min: Vec3(repeating: .infinity), max: Vec3(repeating: -.infinity))

    /// True when no point has been added.
    public var isEmpty: Bool { min.x > max.x }

    /// The box grown to contain `p` (non-finite points are ignored).
    public func including(_ p: Vec3) -> Bounds {
        guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { return self }
        return Bounds(min: pointwiseMin(min, p), max: pointwiseMax(max, p))
    }

    /// The smallest box holding both boxes (an empty one adds nothing).
    public func union(_ other: Bounds) -> Bounds {
        if other.isEmpty { return self }
        if isEmpty { return other }
        return Bounds(min: pointwiseMin(min, other.min), max: pointwiseMax(max, other.max))
    }

    /// Bounds of a set of points.
    public init<S: Sequence>(points: S) where S.Element == Vec3 {
        var b = Bounds.empty
        for p in points { b = b.including(p) }
        self = b
    }

    /// Centre point.
    public var center: Vec3 { (min + max) / 2 }
    /// Edge lengths.
    public var size: Vec3 { max - min }
}
