// CPUDispatch — which compiled kernels the CPU this runs on may use, decided once at start-up.
//
// The release build is portable: its code targets any x86-64-v3 CPU (AVX2 + FMA), and the
// block blend kernel is also compiled for AVX-512 (SplatRenderAVX512). The renderer takes the
// AVX-512 compile only where cpuid reports AVX-512 F/CD/VL/BW/DQ with the OS saving the zmm
// registers, and not when the environment masks it off (`SPLATFRAME_NO_AVX512=1`, for tests
// and for comparing the two paths on one machine).
import CSIMD
import Foundation
internal import SplatRenderAVX512

/// The CPU this process runs on and the kernels it may use.
public enum CPUDispatch {
    /// The environment variable that masks AVX-512 off (any value but empty or "0").
    public static let maskVariable = "SPLATFRAME_NO_AVX512"

    /// The CPU's brand string as cpuid reports it (e.g. "AMD EPYC 9B14"), or "unknown".
    public static let cpuModel: String = {
        var buffer = [CChar](repeating: 0, count: 49)
        csimd_cpu_brand(&buffer)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "unknown" : name
    }()

    /// The CPU's display family and model (e.g. 25 and 17 for a Zen 4 EPYC).
    public static let cpuSignature: (family: Int, model: Int) = {
        var family: Int32 = 0, model: Int32 = 0
        csimd_cpu_signature(&family, &model)
        return (Int(family), Int(model))
    }()

    /// Whether the CPU (and the OS) can run AVX-512 code, masked or not.
    public static let cpuHasAVX512 = csimd_cpu_has_avx512() != 0

    /// Whether the environment masks AVX-512 off.
    public static let avx512Masked: Bool = {
        let value = ProcessInfo.processInfo.environment[maskVariable] ?? ""
        return !value.isEmpty && value != "0"
    }()

    /// Whether this build carries AVX-512 kernels (false in a `SPLATFRAME_TARGET_CPU` build for
    /// a CPU without it).
    public static let avx512KernelsBuilt = AVX512BlockKernel.compiledForAVX512

    /// Whether the renderers may use their AVX-512 kernels here.
    public static let avx512Available = avx512KernelsBuilt && cpuHasAVX512 && !avx512Masked

    /// The instruction set `kernel` runs with here: AVX-512 for the block kernel where
    /// available and `allowsAVX512`, else the build's baseline.
    public static func instructionSet(for kernel: BlendKernel, allowsAVX512: Bool = true) -> KernelInstructionSet {
        kernel == .blocks && allowsAVX512 && avx512Available ? .avx512 : .baseline
    }

    /// Why AVX-512 kernels are or are not in use, in a few words.
    public static var avx512State: String {
        avx512Available ? "AVX-512 kernels in use"
            : !avx512KernelsBuilt ? "no AVX-512 kernels in this build"
            : !cpuHasAVX512 ? "no AVX-512 on this CPU" : "AVX-512 masked off by \(maskVariable)"
    }

    /// One line for reports: the CPU, and why AVX-512 is or is not used.
    public static var summary: String {
        let (f, m) = cpuSignature
        return "\(cpuModel) (family \(f), model \(m)); \(avx512State)"
    }
}

/// The instruction set a kernel runs with.
public enum KernelInstructionSet: String, Sendable {
    /// The build's target (AVX2 + FMA in the default x86-64 build).
    case baseline
    /// The AVX-512 compile (SplatRenderAVX512).
    case avx512

    /// A short name for reports: "avx512", or the baseline's ("avx2" on x86-64-v3).
    public var name: String {
        switch self {
        case .avx512: return "avx512"
        case .baseline:
            #if arch(x86_64)
            return ["avx2", "avx512"][Int(CSIMD_HAS_AVX512)]  // (no dead branch to warn of)
            #else
            return "baseline"
            #endif
        }
    }
}
