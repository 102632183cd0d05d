// SampleNoiseMeter — how noisy a tracker's samples of one coordinate are, measured from the
// samples themselves: a filter then smooths a noisy webcam (poor light) for the noise it has.

/// The noise (standard deviation, metres) of the last second's samples of one scalar: the median
/// |second difference| of the last `window` samples over 0.6745·√6. White noise of σ gives
/// second differences of spread σ√6; a smooth head's are far smaller at 30 Hz, and the median
/// ignores a move's few large ones. 0 until 9 second differences are in. Allocates nothing per
/// sample once its buffers are full.
public struct SampleNoiseMeter: Sendable, Equatable {
    /// Samples whose second differences measure the noise (about a second at 30 Hz).
    public static let window = 31

    /// The measured noise (metres; 0 before 9 second differences).
    public private(set) var noise = 0.0
    private var previous: Double?, beforePrevious: Double?
    private var differences: [Double] = []
    private var next = 0
    private var sorting: [Double] = []

    public init() {}

    /// Records `value` (a new sample, later than the last).
    public mutating func add(_ value: Double) {
        if let p1 = previous, let p2 = beforePrevious {
            let d = abs(value - 2 * p1 + p2)
            if differences.count < Self.window { differences.append(d) } else { differences[next] = d }
            next = (next + 1) % Self.window
            if differences.count >= 9 {
                sorting.removeAll(keepingCapacity: true)
                for d in differences {   // insertion sort: 31 values at most
                    var i = sorting.count
                    sorting.append(d)
                    while i > 0 && sorting[i - 1] > d { sorting[i] = sorting[i - 1]; i -= 1 }
                    sorting[i] = d
                }
                noise = sorting[sorting.count / 2] / (0.6745 * 6.0.squareRoot())
            }
        }
        beforePrevious = previous; previous = value
    }

    /// Forgets the samples (keeps the buffers' capacity).
    public mutating func reset() {
        previous = nil; beforePrevious = nil; differences.removeAll(keepingCapacity: true); next = 0; noise = 0
    }
}
