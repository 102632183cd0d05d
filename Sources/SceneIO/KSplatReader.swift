// SceneIO — KSplatReader: GaussianSplats3D `.ksplat` (SplatBuffer 0.1+, compression levels 0–2), file frame kept.
//
// Layout (mkkellogg/GaussianSplats3D, src/loaders/SplatBuffer.js), little-endian throughout:
// a 4096-byte header (u8 version major 0 and minor ≥ 1; u32@4 section count; u32@12 splat count;
// u16@20 compression level; f32@24 scene centre, informational; f32@36/@40 the SH range of level 2,
// 0 meaning ∓1.5), one 1024-byte header per section (u32@4 splats, @8 bucket size, @12 bucket
// count, f32@16 bucket block size, u16@20 bytes per bucket, u32@24 position scale range (0: 32767),
// @32 full buckets, @36 partially filled buckets, u16@40 SH degree), then each section: u32 lengths of
// its partial buckets, f32×3 bucket centres, then the splats, stored bucket by bucket (full buckets
// first). Per splat: centre, scale (linear), rotation w x y z, RGBA8, SH —
//   level 0: f32 ×3, f32 ×3, f32 ×4, u8 ×4, f32 per SH component;
//   level 1: u16 ×3 bucket-relative ((q − range)·blockSize/2/range + bucket centre), f16 ×3, f16 ×4,
//            u8 ×4, f16 per SH component;
//   level 2: as level 1 with u8 SH components, v/255·(max − min) + min.
// Colour bytes are (0.5 + C0·dc)·255 and opacity the sigmoid ·255, as GaussianSplats3D writes them.
// SH components are stored band by band, each band channel-major: band 1 R(3) G(3) B(3), band 2
// R(5) G(5) B(5), band 3 R(7) G(7) B(7) (degree 3 is sized by GaussianSplats3D's layout but neither
// written nor drawn by it; we read it by the same rule). Positions stay in the file's frame — the
// frame of the PLY it was converted from (GaussianSplats3D converts without moving anything, and
// its viewer turns the camera, `cameraUp: [0, -1, -0.6]`, not the data) — so a `.ksplat` sits like
// its PLY: y-down, `-y` up by default.
import RenderCore

/// Reads `.ksplat` files.
enum KSplatReader {
    static let headerSize = 4096
    static let sectionHeaderSize = 1024
    /// GaussianSplats3D's default 8-bit SH range is ±(3 / 2).
    static let defaultSHHalfRange: Float = 1.5

    /// One section's header fields and where its data lies in the file.
    struct Section {
        var splats: Int, degree: Int
        var bucketSize: Int, bucketCount: Int, fullBuckets: Int, partialBuckets: Int
        var blockSize: Float, scaleRange: Float
        /// Offsets of the partial-bucket lengths, the bucket centres and the splats.
        var base: Int, bucketsBase: Int, dataBase: Int
        /// Offset of the section's 1024-byte header (for errors).
        var headerOffset: Int
    }

    /// SH components stored per splat for a degree (0…3).
    static func shComponents(degree: Int) -> Int { SplatCloud.restCount(degree: degree) * 3 }

    /// Bytes per splat for a compression level and SH degree.
    static func bytesPerSplat(level: Int, degree: Int) -> Int {
        let sh = shComponents(degree: degree)
        return level == 0 ? 44 + 4 * sh : 24 + (level == 1 ? 2 : 1) * sh
    }

    /// The file component holding rest coefficient `k` (3DGS order) of channel `c`.
    @inline(__always) static func shComponent(k: Int, c: Int) -> Int {
        let band = k < 3 ? 1 : k < 8 ? 2 : 3
        let first = band * band - 1                       // k of the band's first coefficient
        return 3 * first + c * (2 * band + 1) + (k - first)
    }

    static func read(_ view: ByteView, progress: SceneLoadProgress?) throws -> ReadResult {
        let file = view.file
        try view.need(0, headerSize, "a 4096-byte .ksplat header")
        let major = Int(view.u8(0)), minor = Int(view.u8(1))
        guard major == 0, minor >= 1 else {
            throw SceneIOError.badBytes(file: file, offset: 0, expected: "a .ksplat version 0.1 or a later 0.x", found: "\(major).\(minor)")
        }
        let level = Int(view.u16(20))
        guard level <= 2 else { throw SceneIOError.badBytes(file: file, offset: 20, expected: "compression level 0, 1 or 2", found: "\(level)") }
        let sections = try parseSections(view, level: level)
        let total = sections.reduce(0) { $0 + $1.splats }
        guard total == Int(view.u32(12)) else {
            throw SceneIOError.badBytes(file: file, offset: 12, expected: "the sections' total of \(total) splats", found: "\(view.u32(12))")
        }
        var lo = view.f32(36), hi = view.f32(40)
        if lo == 0 || lo.isNaN { lo = -defaultSHHalfRange }
        if hi == 0 || hi.isNaN { hi = defaultSHHalfRange }
        let degree = sections.map(\.degree).max() ?? 0
        var cloud = SplatCloud(shDegree: degree)
        cloud.reserveCapacity(total)
        var done = 0
        for s in sections {
            try decode(view, s, level: level, shRange: (lo, hi), keptDegree: degree, into: &cloud, done: &done, total: total, progress: progress)
        }
        progress?(view.count, view.count)
        let per = bytesPerSplat(level: level, degree: degree)
        let name = ["float", "half", "half"][level], shType = ["float", "half", "uchar"][level]
        var props = [level == 0 ? "float x y z" : "ushort x y z (bucket-relative)", "\(name) scale_0..2", "\(name) rot w x y z", "uchar r g b a"]
        if degree > 0 { props.append("\(shType) sh ×\(shComponents(degree: degree))") }
        var elements = [SceneInfo.Element(name: "section", count: sections.count, properties: ["1024-byte header"]),
                        SceneInfo.Element(name: "splat", count: total, properties: props)]
        let buckets = sections.reduce(0) { $0 + $1.bucketCount }
        if level > 0 { elements.append(SceneInfo.Element(name: "bucket", count: buckets, properties: ["float centre x y z"])) }
        let variant = "compression level \(level) (" + ["float32", "half floats, bucketed positions",
                       "half floats, bucketed positions, 8-bit SH"][level] + "; \(per) bytes per splat)"
        return ReadResult(scene: .splats(cloud), format: .ksplat, variant: variant, version: "\(major).\(minor)", elements: elements)
    }

    /// Reads and checks every section header against the file's size (before anything is allocated).
    static func parseSections(_ view: ByteView, level: Int) throws -> [Section] {
        let file = view.file
        let count = Int(view.u32(4))
        guard let headersBytes = SizeMath.mul(count, sectionHeaderSize), headersBytes <= view.count - headerSize else {
            throw SceneIOError.truncated(file: file, offset: view.count, expected: "\(count) section headers of 1024 bytes after the 4096-byte header")
        }
        var sections: [Section] = []
        var base = headerSize + headersBytes
        for i in 0..<count {
            let h = headerSize + i * sectionHeaderSize
            let splats = Int(view.u32(h + 4)), degree = Int(view.u16(h + 40))
            guard degree <= 3 else { throw SceneIOError.badBytes(file: file, offset: h + 40, expected: "SH degree 0…3 (section \(i))", found: "\(degree)") }
            let bucketSize = Int(view.u32(h + 8)), bucketCount = Int(view.u32(h + 12)), bucketBytes = Int(view.u16(h + 20))
            let full = Int(view.u32(h + 32)), partial = Int(view.u32(h + 36))
            let range = view.u32(h + 24)
            guard let data = SizeMath.mul(splats, bytesPerSplat(level: level, degree: degree)),
                  let centres = SizeMath.mul(bucketCount, bucketBytes),
                  let storage = SizeMath.add(data, centres + partial * 4),
                  base <= view.count, storage <= view.count - base else {
                throw SceneIOError.truncated(file: file, offset: min(base, view.count),
                                             expected: "section \(i): \(splats) splats and \(bucketCount) buckets (header at byte \(h))")
            }
            var s = Section(splats: splats, degree: degree, bucketSize: bucketSize, bucketCount: bucketCount, fullBuckets: full,
                            partialBuckets: partial, blockSize: view.f32(h + 16), scaleRange: Float(range == 0 ? 32767 : range),
                            base: base, bucketsBase: base + partial * 4, dataBase: base + centres + partial * 4, headerOffset: h)
            if level > 0 && splats > 0 { try checkBuckets(view, &s, bucketBytes: bucketBytes, index: i) }
            sections.append(s)
            base += storage
        }
        return sections
    }

    /// Level 1–2: the buckets must be 12-byte centres, have a usable block size and hold every splat.
    static func checkBuckets(_ view: ByteView, _ s: inout Section, bucketBytes: Int, index i: Int) throws {
        let file = view.file, h = s.headerOffset
        guard bucketBytes == 12 else { throw SceneIOError.badBytes(file: file, offset: h + 20, expected: "12-byte buckets (section \(i))", found: "\(bucketBytes)") }
        guard s.blockSize.isFinite, s.blockSize > 0 else {
            throw SceneIOError.badBytes(file: file, offset: h + 16, expected: "a positive bucket block size (section \(i))", found: "\(s.blockSize)")
        }
        guard s.fullBuckets <= s.bucketCount, s.partialBuckets <= s.bucketCount - s.fullBuckets else {
            throw SceneIOError.badBytes(file: file, offset: h + 32, expected: "at most \(s.bucketCount) full and partial buckets (section \(i))",
                                        found: "\(s.fullBuckets) full, \(s.partialBuckets) partial")
        }
        var held = s.fullBuckets * s.bucketSize                 // both < 2³², no overflow in Int
        for j in 0..<s.partialBuckets { held += Int(view.u32(s.base + j * 4)) }
        guard held >= s.splats else {
            throw SceneIOError.badBytes(file: file, offset: h + 32, expected: "buckets holding the section's \(s.splats) splats (section \(i))", found: "\(held)")
        }
    }

    /// Decodes one section's splats onto the cloud.
    static func decode(_ view: ByteView, _ s: Section, level: Int, shRange: (Float, Float), keptDegree: Int,
                       into cloud: inout SplatCloud, done: inout Int, total: Int, progress: SceneLoadProgress?) throws {
        let file = view.file
        let per = bytesPerSplat(level: level, degree: s.degree)
        let own = SplatCloud.restCount(degree: s.degree)
        var rest = [Float](repeating: 0, count: SplatCloud.restCount(degree: keptDegree) * 3)
        let factor = s.blockSize / 2 / s.scaleRange
        let shScale = (shRange.1 - shRange.0) / 255
        var bucket = -1, left = 0                               // level 1–2: the bucket of splat i, splats left in it
        @inline(__always) func half(_ o: Int) -> Float { Float(Float16(bitPattern: view.u16(o))) }
        for i in 0..<s.splats {
            let o = s.dataBase + i * per
            var p: Vec3, scale: Vec3, q: Quaternion, sh: Int
            if level == 0 {
                p = Vec3(view.f32(o), view.f32(o + 4), view.f32(o + 8))
                scale = Vec3(view.f32(o + 12), view.f32(o + 16), view.f32(o + 20))
                q = Quaternion(w: view.f32(o + 24), x: view.f32(o + 28), y: view.f32(o + 32), z: view.f32(o + 36))
                sh = o + 44
            } else {
                while left == 0 {                               // next bucket (`checkBuckets` bounds this)
                    bucket += 1
                    guard bucket < s.fullBuckets + s.partialBuckets else {
                        throw SceneIOError.badBytes(file: file, offset: s.headerOffset + 32, expected: "a bucket for splat \(i)", found: "none")
                    }
                    left = bucket < s.fullBuckets ? s.bucketSize : Int(view.u32(s.base + (bucket - s.fullBuckets) * 4))
                }
                left -= 1
                let c = s.bucketsBase + bucket * 12
                let centre = Vec3(view.f32(c), view.f32(c + 4), view.f32(c + 8))
                p = (Vec3(Float(view.u16(o)), Float(view.u16(o + 2)), Float(view.u16(o + 4))) - s.scaleRange) * factor + centre
                scale = Vec3(half(o + 6), half(o + 8), half(o + 10))
                q = Quaternion(w: half(o + 12), x: half(o + 14), y: half(o + 16), z: half(o + 18))
                sh = o + 24
            }
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else {
                throw SceneIOError.badBytes(file: file, offset: o, expected: "a finite position", found: "\(p.x) \(p.y) \(p.z)")
            }
            guard scale.x.isFinite, scale.y.isFinite, scale.z.isFinite else {
                throw SceneIOError.badBytes(file: file, offset: o + (level == 0 ? 12 : 6), expected: "a finite scale", found: "\(scale.x) \(scale.y) \(scale.z)")
            }
            let cb = level == 0 ? o + 40 : o + 20
            let rgba = Vec4(Float(view.u8(cb)), Float(view.u8(cb + 1)), Float(view.u8(cb + 2)), Float(view.u8(cb + 3))) / 255
            for k in 0..<own {
                for c in 0..<3 {
                    let m = shComponent(k: k, c: c)
                    let v: Float = level == 0 ? view.f32(sh + 4 * m) : level == 1 ? half(sh + 2 * m) : Float(view.u8(sh + m)) * shScale + shRange.0
                    guard v.isFinite else {
                        throw SceneIOError.badBytes(file: file, offset: sh + m * (level == 0 ? 4 : level == 1 ? 2 : 1), expected: "a finite SH coefficient", found: "\(v)")
                    }
                    rest[k * 3 + c] = v
                }
            }
            cloud.append(position: p, scale: Vec3(abs(scale.x), abs(scale.y), abs(scale.z)), rotation: q.normalized, opacity: rgba.w,
                         dc: SplatCloud.dcFromColor(Vec3(rgba.x, rgba.y, rgba.z)), rest: rest)
            done += 1
            if done & 0xFFFF == 0 { progress?(Int(Double(view.count) * Double(done) / Double(max(total, 1))), view.count) }
        }
    }
}
