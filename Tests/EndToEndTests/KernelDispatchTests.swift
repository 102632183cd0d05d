// The release binary's run-time kernel choice, from outside: with AVX-512 masked off it runs
// the AVX2 path; where the CPU has AVX-512 it takes the AVX-512 block kernel, whose frame must
// match the AVX2 path's (identical colour bytes, or at most one level per channel on at most
// 0.1 % of pixels); and no AVX-512 instruction lies outside the dispatched kernels, so the
// binary runs on every AVX2 + FMA CPU.
import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

@Suite("Kernel dispatch")
struct KernelDispatchTests {
    static var release: String { TestData.projectRoot.appendingPathComponent(".build/release/splatframe").path }

    static func releaseBinary() throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: release),
                     "build the release binary first (swift build -c release --product splatframe; make test does)")
        return release
    }

    struct Run { var blendKernel: String; var instructionSet: String; var machine: [String: Any]; var image: RGBAImage }

    /// One frame of a 40k-splat scene through `bench`, its JSON and the frame.
    static func bench(maskAVX512: Bool, kernel: String? = nil) throws -> Run {
        let dir = TestData.temporaryDirectory()
        let json = dir.appendingPathComponent("b.json").path, png = dir.appendingPathComponent("f.png").path
        var env = ProcessInfo.processInfo.environment
        env["SPLATFRAME_NO_AVX512"] = maskAVX512 ? "1" : nil
        let args = ["bench", "generate:40000", "--size", "320x180", "--frames", "1", "--warmup", "0",
                    "--threads", "2", "--json", json, "--out", png] + (kernel.map { ["--blend-kernel", $0] } ?? [])
        let r = try BinaryLocator.run(try releaseBinary(), args, environment: env)
        try #require(r.status == 0, "bench failed: \(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let result = try #require((doc["results"] as? [[String: Any]])?.first)
        let work = try #require(result["splatWork"] as? [String: Any], "no splatWork in \(result.keys)")
        let machine = try #require(result["machine"] as? [String: Any], "no machine in \(result.keys)")
        return Run(blendKernel: try #require(work["blendKernel"] as? String),
                   instructionSet: try #require(work["blendInstructionSet"] as? String),
                   machine: machine, image: try ImageFile.load(png))
    }

    @Test("masked off, AVX-512 is never used; where the CPU has it, both paths give the same frame")
    func dispatch() throws {
        let masked = try Self.bench(maskAVX512: true)
        #expect(masked.blendKernel == "lanes8" && masked.instructionSet == "avx2", "\(masked.blendKernel) \(masked.instructionSet)")
        #expect(masked.machine["avx512Masked"] as? Bool == true)
        let forcedBlocks = try Self.bench(maskAVX512: true, kernel: "blocks")
        #expect(forcedBlocks.instructionSet == "avx2", "blocks with AVX-512 masked off ran \(forcedBlocks.instructionSet)")

        let open = try Self.bench(maskAVX512: false)
        #expect(open.machine["avx512Masked"] as? Bool == false)
        guard open.machine["cpuHasAVX512"] as? Bool == true, open.machine["avx512KernelsBuilt"] as? Bool == true else {
            #expect(open.blendKernel == "lanes8" && open.instructionSet == "avx2")
            print("skipped: the AVX-512 half needs an AVX-512 CPU and build — family \(open.machine["family"] ?? "?") model \(open.machine["model"] ?? "?"): \(open.machine["dispatch"] ?? "?")")
            return
        }
        #expect(open.blendKernel == "blocks" && open.instructionSet == "avx512", "\(open.blendKernel) \(open.instructionSet)")
        for (name, other) in [("lanes8/avx2", masked), ("blocks/avx2", forcedBlocks)] {
            let c = ImageComparison(open.image, other.image, tolerance: 1)
            let exact = ImageComparison(open.image, other.image)
            print("blocks/avx512 vs \(name): \(exact)")
            #expect(c.maxError <= 1 && c.differingPixels == 0 && exact.differingPixels * 1000 <= open.image.pixels.count,
                    "blocks/avx512 vs \(name): \(exact)")
        }
    }

    @Test("the release binary has AVX-512 instructions only in the dispatched kernels, and the check can fail")
    func disassembly() throws {
        let script = TestData.projectRoot.appendingPathComponent("Scripts/check-dispatch.sh").path
        let clean = try BinaryLocator.run("/bin/bash", [script, try Self.releaseBinary()])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("all in SplatRenderAVX512: yes"), "\(clean.stdout)")

        // A program with AVX-512 code in main: the check must name it.
        let dir = TestData.temporaryDirectory()
        let source = dir.appendingPathComponent("wide.c"), program = dir.appendingPathComponent("wide").path
        try Data("""
            #include <immintrin.h>
            __attribute__((target("avx512f"))) void scale(float *p) { _mm512_storeu_ps(p, _mm512_mul_ps(_mm512_loadu_ps(p), _mm512_set1_ps(2))); }
            int main(void) { return 0; }
            """.utf8).write(to: source)
        let cc = try BinaryLocator.run("/usr/bin/env", ["clang", "-O1", "-o", program, source.path])
        try #require(cc.status == 0, "clang failed: \(cc.stderr)")
        let dirty = try BinaryLocator.run("/bin/bash", [script, program])
        #expect(dirty.status == 1 && dirty.stdout.contains("outside:") && dirty.stdout.contains("scale"), "\(dirty.stdout)\(dirty.stderr)")
    }
}
