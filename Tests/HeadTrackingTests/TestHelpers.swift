// TestHelpers — small shared helpers for the HeadTracking tests.
@testable import HeadTracking

/// Euclidean length of a double-precision 3-vector (metres).
func length(_ v: Vec3d) -> Double { (v * v).sum().squareRoot() }
