// FastExp — an 8-wide exp for the blender (there is no vector exp in Swift's stdlib).
//
// exp(x) = 2^(x·log2 e) = 2^n · 2^f with n = round(x·log2 e) found by the magic-number
// trick (adding 1.5·2²³ rounds to an integer held in the low mantissa bits) and
// f ∈ [−½, ½] handled by a degree-5 polynomial of 2^f. Relative error < 2e-6 on [−20, 0]
// (tested; the blender only needs [−5.6, 0], below which alpha < 1/255 anyway) and growing
// to ~5e-6 near −87 from the rounding of x·log2 e — far below what the 8-bit image contract
// can see: alpha moves by < 2e-6 relative, and so does the 1/255 skip threshold.

/// exp(x) per lane for x ≤ 0 (inputs below −87 return ~2⁻¹²⁶ rather than 0).
@inline(__always)
func fastExp(_ x: SIMD8<Float>) -> SIMD8<Float> { fastExp2(x * 1.4426950408889634) }

/// 2^x per lane for x ≤ 0 (inputs below −126 return 2⁻¹²⁶). The blender calls this directly
/// with a conic pre-scaled by log2 e, saving the multiply.
@inline(__always)
func fastExp2(_ x: SIMD8<Float>) -> SIMD8<Float> {
    let t = maxLanes(x, SIMD8<Float>(repeating: -126))
    let magic: Float = 12_582_912  // 1.5 · 2^23
    let shifted = t + magic
    let n = shifted - magic
    let f = t - n
    // Horner with fused multiply-adds (c + p·f); coefficients fitted for minimal relative
    // error of 2^f on [−½, ½] (7.5e-8 in exact arithmetic, ~2.5e-7 in Float).
    typealias V = SIMD8<Float>
    var p = V(repeating: 9.675541330687001e-3).addingProduct(V(repeating: 1.3276471519852e-3), f)
    p = V(repeating: 5.55071327496038e-2).addingProduct(p, f)
    p = V(repeating: 0.24022119723933882).addingProduct(p, f)
    p = V(repeating: 0.6931469670638658).addingProduct(p, f)
    p = V(repeating: 1.0000000716546553).addingProduct(p, f)
    let bits = (unsafeBitCast(shifted, to: SIMD8<Int32>.self) &<< 23) &+ (127 << 23)
    return p * unsafeBitCast(bits, to: SIMD8<Float>.self)
}
