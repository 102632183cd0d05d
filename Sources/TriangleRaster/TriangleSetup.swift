import RenderCore

/// Everything the tile rasterizer needs about one screen-space triangle, computed once.
///
/// Edge functions are exact 64-bit integers on vertices snapped to 1/256 pixel, oriented so
/// that inside is `E ≥ 0` on all three edges, with the top-left fill rule folded in as a −1
/// bias on the other edges. `edge` holds their values at the centre of pixel (minX, minY);
/// one pixel right adds `stepX`, one down adds `stepY`. Attribute planes are relative to the
/// same pixel centre: value(dx, dy) = c + a·dx + b·dy for pixel offsets dx, dy.
struct TriangleSetup {
    var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    var edge: SIMD4<Int64>
    var stepX: SIMD4<Int64>
    var stepY: SIMD4<Int64>
    /// 1/w plane (w = camera-space depth for OpenGL projections).
    var invW: SIMD4<Float>          // (a, b, c, unused)
    /// (u, v, nx, ny, nz, r, g, b) / w planes.
    var attrA: SIMD8<Float>
    var attrB: SIMD8<Float>
    var attrC: SIMD8<Float>
    var material: Int32
    /// Lighting sign: −1 flips the normal (two-sided lighting of a back face).
    var normalSign: Float
    /// For a flat triangle (equal vertex normals) the Lambert + ambient factor, computed once;
    /// −1 when the normal varies across the triangle.
    var flatLight: Float
}

/// Builds `TriangleSetup`s from clip-space triangles: clipping, projection to the viewport,
/// snapping, culling, fill rule and attribute planes.
struct TriangleSetupBuilder {
    let width: Int
    let height: Int
    let cullBackFaces: Bool
    let twoSided: Bool
    let guardX: Float
    let guardY: Float
    let lighting: Lighting
    let planes: (Vec4, Vec4, Vec4, Vec4, Vec4, Vec4)

    init(width: Int, height: Int, settings: RasterSettings) {
        self.width = width; self.height = height
        cullBackFaces = settings.cullBackFaces; twoSided = settings.twoSidedLighting
        lighting = settings.lighting
        guardX = 1 + 2 * RasterSettings.guardBandPixels / Float(width)
        guardY = 1 + 2 * RasterSettings.guardBandPixels / Float(height)
        planes = HomogeneousClipper.planes(guardX: guardX, guardY: guardY)
    }

    /// Sets up triangle (a, b, c) — indices into the vertex stage's `vertices` and `screen`
    /// — clipping it when needed, and appends the results to `out`. A triangle inside the
    /// clip volume is culled from its `ScreenVertex`es alone (zero area, back face, no pixel
    /// centre covered) before its `ClipVertex`es are read. `poly` and `scratch` are per-worker
    /// buffers of at least 16 vertices.
    @inline(__always)
    func build(_ a: Int, _ b: Int, _ c: Int, vertices: UnsafePointer<ClipVertex>, screen: UnsafePointer<ScreenVertex>,
               material: Int32, into out: inout SetupChunk,
               poly: UnsafeMutablePointer<ClipVertex>, scratch: UnsafeMutablePointer<ClipVertex>) {
        let sa = screen[a], sb = screen[b], sc = screen[c]
        if sa.code & sb.code & sc.code != 0 { return }
        if sa.code | sb.code | sc.code == 0 {
            emit(vertices + a, vertices + b, vertices + c,
                 SIMD2(Int64(sa.x), Int64(sa.y)), SIMD2(Int64(sb.x), Int64(sb.y)), SIMD2(Int64(sc.x), Int64(sc.y)),
                 material: material, into: &out)
            return
        }
        // Reject NaN/degenerate input before clipping.
        let va = vertices[a], vb = vertices[b], vc = vertices[c]
        guard va.clip.w.isFinite && vb.clip.w.isFinite && vc.clip.w.isFinite else { return }
        poly[0] = va; poly[1] = vb; poly[2] = vc
        var p = planes
        let mask = UInt8(truncatingIfNeeded: (sa.code | sb.code | sc.code) & 0x3F)
        let (result, n) = withUnsafePointer(to: &p) {
            $0.withMemoryRebound(to: Vec4.self, capacity: 6) {
                HomogeneousClipper.clip(poly, count: 3, scratch: scratch, mask: mask, planes: $0)
            }
        }
        guard n >= 3 else { return }
        let w = Float(width), h = Float(height)
        guard let q0 = ScreenVertex.snap(result[0].clip, width: w, height: h) else { return }
        var q1 = ScreenVertex.snap(result[1].clip, width: w, height: h)
        for i in 1..<(n - 1) {
            let q2 = ScreenVertex.snap(result[i + 1].clip, width: w, height: h)
            if let q1, let q2 { emit(result, result + i, result + i + 1, q0, q1, q2, material: material, into: &out) }
            q1 = q2
        }
    }

    /// Whether a triangle inside the clip volume, at snapped positions p0, p1, p2 (1/256 px),
    /// is drawn: not degenerate, not culled, and some pixel centre lies in its bounding box —
    /// with `testCentres`, inside the triangle itself when the box holds at most
    /// `centresTestedInSetup` of them (the culling pass tests; setup, which sees only its
    /// survivors, does not test again). Returns it oriented so that inside is E ≥ 0 (p1 and
    /// p2 swapped when `front`), with its pixel bounding box; nil when it draws nothing.
    @inline(__always)
    func coverage(_ p0: SIMD2<Int64>, _ p1: SIMD2<Int64>, _ p2: SIMD2<Int64>, testCentres: Bool) -> Coverage? {
        var area = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
        if area == 0 { return nil }
        // Counter-clockwise in OpenGL's y-up NDC is clockwise (negative area) in y-down pixels.
        let front = area < 0
        if !front && cullBackFaces { return nil }
        if front { area = -area }
        // Pixels whose centres (k + 0.5 px = 256k + 128) can lie inside the bounding box.
        let minFx = min(p0.x, p1.x, p2.x), maxFx = max(p0.x, p1.x, p2.x)
        let minFy = min(p0.y, p1.y, p2.y), maxFy = max(p0.y, p1.y, p2.y)
        let minX = max(0, (minFx - 128 + 255) >> 8), maxX = min(Int64(width - 1), (maxFx - 128) >> 8)
        let minY = max(0, (minFy - 128 + 255) >> 8), maxY = min(Int64(height - 1), (maxFy - 128) >> 8)
        if minX > maxX || minY > maxY { return nil }
        let q1 = front ? p2 : p1, q2 = front ? p1 : p2
        // A triangle whose box holds at most 4 pixel centres (a dense mesh's sub-pixel
        // triangles) is kept only if one of them is inside, by the rasterizer's own test.
        if testCentres && (maxX - minX + 1) * (maxY - minY + 1) <= Self.centresTestedInSetup
            && !Self.coversACentre(p0, q1, q2, minX: minX, minY: minY, maxX: maxX, maxY: maxY) { return nil }
        return Coverage(p0: p0, p1: q1, p2: q2, area: area, front: front,
                        minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// Boxes with at most this many pixel centres are tested centre by centre in setup.
    static let centresTestedInSetup: Int64 = 4

    /// Whether the centre of a pixel in [minX, maxX] × [minY, maxY] — at most 4 of them — lies
    /// inside the triangle p0, p1, p2 (1/256 px, oriented so that inside is E ≥ 0), by the
    /// edge functions and top-left rule of `emit` and the tile rasterizer. One lane per centre:
    /// with u, w an edge's ends relative to the centre, E = u.x·w.y − w.x·u.y − bias, which is
    /// `emit`'s a·(x − p.x) + b·(y − p.y) − bias expanded. In 32 bits: the vertices lie within
    /// a pixel of the box, so every product is below 2^21.
    @inline(__always)
    static func coversACentre(_ p0: SIMD2<Int64>, _ p1: SIMD2<Int64>, _ p2: SIMD2<Int64>,
                              minX: Int64, minY: Int64, maxX: Int64, maxY: Int64) -> Bool {
        typealias I = SIMD4<Int32>
        // Centre k = 0…3 of the box: column k mod nx, row k / nx (nx = 1…4 centres wide).
        let nx = maxX &- minX &+ 1, count = Int32(truncatingIfNeeded: nx &* (maxY &- minY &+ 1))
        let k = I(0, 1, 2, 3)
        let column: I, row: I
        switch nx {
        case 1: column = .zero; row = k &* 256
        case 2: column = (k & 1) &* 256; row = (k &>> 1) &* 256
        default: column = k &* 256; row = .zero
        }
        let ox = minX &* 256 &+ 128, oy = minY &* 256 &+ 128
        @inline(__always) func relative(_ p: SIMD2<Int64>) -> (x: I, y: I) {
            (I(repeating: Int32(truncatingIfNeeded: p.x &- ox)) &- column,
             I(repeating: Int32(truncatingIfNeeded: p.y &- oy)) &- row)
        }
        @inline(__always) func bias(_ p: SIMD2<Int64>, _ q: SIMD2<Int64>) -> Int32 {
            Int32(truncatingIfNeeded: fillBias(a: p.y &- q.y, b: q.x &- p.x))
        }
        let r0 = relative(p0), r1 = relative(p1), r2 = relative(p2)
        let e0 = r0.x &* r1.y &- r1.x &* r0.y &- bias(p0, p1)
        let e1 = r1.x &* r2.y &- r2.x &* r1.y &- bias(p1, p2)
        let e2 = r2.x &* r0.y &- r0.x &* r2.y &- bias(p2, p0)
        // Inside where no edge is negative: the sign bit of their OR.
        return any(((e0 | e1 | e2) .>= 0) .& (k .< I(repeating: count)))
    }

    /// The top-left fill rule as a bias subtracted from the edge function a·x + b·y + c: 0 on
    /// an edge that runs up (a > 0) or is a top edge running right (a = 0, b > 0), else 1, so
    /// that a pixel centre exactly on such an edge is drawn by one triangle only.
    @inline(__always)
    static func fillBias(a: Int64, b: Int64) -> Int64 { a > 0 || (a == 0 && b > 0) ? 0 : 1 }

    /// A triangle that `coverage` keeps (see there).
    struct Coverage {
        var p0, p1, p2: SIMD2<Int64>
        var area: Int64
        var front: Bool
        var minX, minY, maxX, maxY: Int64
    }

    /// Whether triangle (a, b, c) needs setting up: for one inside the clip volume, whether it
    /// covers a pixel centre (`build` then appends exactly one setup); for one crossing the
    /// clip volume, true, and `build` may append up to `maxClippedTriangles`.
    @inline(__always)
    func survives(_ sa: ScreenVertex, _ sb: ScreenVertex, _ sc: ScreenVertex) -> Bool {
        if sa.code & sb.code & sc.code != 0 { return false }
        if sa.code | sb.code | sc.code != 0 { return true }
        return coverage(SIMD2(Int64(sa.x), Int64(sa.y)), SIMD2(Int64(sb.x), Int64(sb.y)),
                        SIMD2(Int64(sc.x), Int64(sc.y)), testCentres: true) != nil
    }

    /// The most triangles clipping one triangle yields (a triangle cut by six planes has at
    /// most nine vertices).
    static let maxClippedTriangles = 7

    /// Sets up a triangle that lies inside the clip volume from its vertices and their
    /// snapped positions (1/256 px); returns early, reading nothing more, when it covers no
    /// pixel centre or is culled.
    @inline(__always)
    func emit(_ v0p: UnsafePointer<ClipVertex>, _ v1p: UnsafePointer<ClipVertex>, _ v2p: UnsafePointer<ClipVertex>,
              _ q0: SIMD2<Int64>, _ q1: SIMD2<Int64>, _ q2: SIMD2<Int64>, material: Int32, into out: inout SetupChunk) {
        guard let cov = coverage(q0, q1, q2, testCentres: false) else { return }
        let p0 = cov.p0, p1 = cov.p1, p2 = cov.p2, area = cov.area, front = cov.front
        let minX = cov.minX, maxX = cov.maxX, minY = cov.minY, maxY = cov.maxY
        let v0 = v0p.pointee, v1 = front ? v2p.pointee : v1p.pointee, v2 = front ? v1p.pointee : v2p.pointee  // swapped with p1, p2

        var s = TriangleSetup(minX: Int32(minX), minY: Int32(minY), maxX: Int32(maxX), maxY: Int32(maxY),
                              edge: .zero, stepX: .zero, stepY: .zero, invW: .zero,
                              attrA: .zero, attrB: .zero, attrC: .zero, material: material,
                              normalSign: (!front && twoSided) ? -1 : 1, flatLight: -1)
        if v0.normal == v1.normal && v0.normal == v2.normal {
            let n = v0.normal * s.normalSign
            let len = n.length
            s.flatLight = lighting.ambient + (len > 0 ? lighting.diffuse * max(0, n.dot(lighting.direction) / len) : 0)
        }
        let px = Int64(minX) * 256 + 128, py = Int64(minY) * 256 + 128
        @inline(__always) func setEdge(_ i: Int, _ p: SIMD2<Int64>, _ q: SIMD2<Int64>) {
            let a = p.y - q.y, b = q.x - p.x
            s.edge[i] = a * (px - p.x) + b * (py - p.y) - Self.fillBias(a: a, b: b)
            s.stepX[i] = a * 256
            s.stepY[i] = b * 256
        }
        setEdge(0, p0, p1); setEdge(1, p1, p2); setEdge(2, p2, p0)

        // Attribute planes over the snapped positions, in pixels relative to the origin pixel centre.
        let ox = Float(px) / 256, oy = Float(py) / 256
        let x0 = Float(p0.x) / 256 - ox, y0 = Float(p0.y) / 256 - oy
        let x1 = Float(p1.x) / 256 - ox, y1 = Float(p1.y) / 256 - oy
        let x2 = Float(p2.x) / 256 - ox, y2 = Float(p2.y) / 256 - oy
        let det = Float(area) / 65536
        let e1x = x1 - x0, e1y = y1 - y0, e2x = x2 - x0, e2y = y2 - y0
        let iw0 = 1 / v0.clip.w, iw1 = 1 / v1.clip.w, iw2 = 1 / v2.clip.w
        let wa = ((iw1 - iw0) * e2y - (iw2 - iw0) * e1y) / det
        let wb = ((iw2 - iw0) * e1x - (iw1 - iw0) * e2x) / det
        s.invW = SIMD4(wa, wb, iw0 - wa * x0 - wb * y0, 0)
        @inline(__always) func pack(_ v: ClipVertex, _ iw: Float) -> SIMD8<Float> {
            SIMD8(v.uv.x, v.uv.y, v.normal.x, v.normal.y, v.normal.z, v.color.x, v.color.y, v.color.z) * iw
        }
        let f0 = pack(v0, iw0), f1 = pack(v1, iw1), f2 = pack(v2, iw2)
        let d1 = f1 - f0, d2 = f2 - f0
        let aa = (d1 * e2y - d2 * e1y) / det
        let bb = (d2 * e1x - d1 * e2x) / det
        s.attrA = aa; s.attrB = bb
        s.attrC = f0 - aa * x0 - bb * y0
        out.append(s)
    }
}
