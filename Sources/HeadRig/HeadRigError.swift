// HeadRigError — what can go wrong building the rendered head.

/// Errors of the head rig.
public enum HeadRigError: Error, CustomStringConvertible, Sendable {
    case badFile(String)
    case noFace(String)
    public var description: String {
        switch self {
        case .badFile(let m), .noFace(let m): return m
        }
    }
}
