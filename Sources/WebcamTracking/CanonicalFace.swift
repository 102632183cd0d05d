// CanonicalFace — MediaPipe's canonical face (the head frame the landmarker's transform refers
// to, and the 3D model the head pose is fitted to), read from the face_landmarker.task bundle.
import Foundation
import ZipReading

/// MediaPipe's canonical face mesh: 468 vertices (centimetres; x towards the image's right when
/// the face looks at the camera, y up, z out of the face), their texture coordinates in
/// MediaPipe's face atlas, 898 triangles, and the weighted landmarks MediaPipe fits the pose to
/// (33 rigid points: eye corners, nose, cheekbones, forehead). Read from
/// `geometry_pipeline_metadata_landmarks.binarypb` inside `face_landmarker.task` (a protobuf
/// `GeometryPipelineMetadata`: field 1 the `Mesh3d` — its field 3 holds x, y, z, u, v per vertex
/// as floats, field 4 the triangle indices — and field 2 repeated {landmark id, weight}).
public struct CanonicalFace: Sendable {
    public var positions: [SIMD3<Float>]
    public var uvs: [SIMD2<Float>]
    public var indices: [UInt32]
    /// The pose-fitting landmarks and their weights.
    public var basis: [(index: Int, weight: Double)]

    static let entry = "geometry_pipeline_metadata_landmarks.binarypb"

    /// Reads the mesh from a `face_landmarker.task` bundle (a ZIP). Throws `WebcamError.detector`.
    public static func load(task path: String) throws -> CanonicalFace {
        let data: Data
        do { data = try ZipEntry.read(entry, inFile: path, cap: 1 << 20) } catch {
            throw WebcamError.detector("\(error)")
        }
        return try parse(data, file: "\(path) \(entry)")
    }

    /// Parses the metadata protobuf; errors name `file` and the byte offset.
    static func parse(_ data: Data, file: String) throws -> CanonicalFace {
        let bytes = [UInt8](data)
        var reader = ProtobufReader(bytes: bytes, file: file)
        var mesh: ArraySlice<UInt8>?
        var basis: [(index: Int, weight: Double)] = []
        while let (field, value) = try reader.next() {
            guard case .bytes(let b) = value else { continue }
            if field == 1 { mesh = b }
            if field == 2 {
                var ref = ProtobufReader(bytes: Array(b), file: file)
                var id = 0, weight = 0.0
                while let (f, v) = try ref.next() {
                    if f == 1, case .varint(let n) = v { id = Int(truncatingIfNeeded: n) }
                    if f == 2, case .fixed32(let w) = v { weight = Double(Float(bitPattern: w)) }
                }
                if (0..<468).contains(id), weight.isFinite, weight > 0 { basis.append((id, weight)) }
            }
        }
        guard let mesh else { throw WebcamError.detector("\(file): no canonical mesh (field 1)") }
        var inner = ProtobufReader(bytes: Array(mesh), file: file)
        var floats: [Float] = [], indices: [UInt32] = []
        while let (field, value) = try inner.next() {
            switch (field, value) {
            case (3, .fixed32(let bits)): floats.append(Float(bitPattern: bits))
            case (4, .varint(let v)): indices.append(UInt32(truncatingIfNeeded: v))
            default: break
            }
        }
        guard floats.count % 5 == 0, floats.count / 5 == 468, indices.count % 3 == 0, !indices.isEmpty,
              indices.allSatisfy({ $0 < 468 }) else {
            throw WebcamError.detector("\(file): expected 468 vertices and triangles over them, found \(floats.count / 5) vertices, \(indices.count) indices")
        }
        let n = floats.count / 5
        return CanonicalFace(positions: (0..<n).map { SIMD3(floats[5 * $0], floats[5 * $0 + 1], floats[5 * $0 + 2]) },
                             uvs: (0..<n).map { SIMD2(floats[5 * $0 + 3], floats[5 * $0 + 4]) }, indices: indices, basis: basis)
    }
}

/// The protobuf wire format, field by field (no schema).
struct ProtobufReader {
    enum Value { case varint(UInt64), fixed64(UInt64), bytes(ArraySlice<UInt8>), fixed32(UInt32) }
    let bytes: [UInt8]
    let file: String
    var offset = 0

    init(bytes: [UInt8], file: String) { self.bytes = bytes; self.file = file }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard offset < bytes.count else { throw WebcamError.detector("\(file): byte \(offset): a varint runs past the end") }
            let b = bytes[offset]; offset += 1
            result |= UInt64(b & 0x7f) << UInt64(shift)
            if b < 0x80 { return result }
        }
        throw WebcamError.detector("\(file): byte \(offset): a varint longer than 10 bytes")
    }

    /// The next field number and value, or nil at the end.
    mutating func next() throws -> (Int, Value)? {
        guard offset < bytes.count else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, n <= bytes.count - offset else { throw WebcamError.detector("\(file): byte \(offset): \(n) bytes run past the end") }
            defer { offset += n }
            return bytes[offset..<offset + n]
        }
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1: return (field, .fixed64(try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }))
        case 2:
            let n = try varint()
            guard n <= UInt64(Int.max) else { throw WebcamError.detector("\(file): byte \(offset): length \(n)") }
            return (field, .bytes(try take(Int(n))))
        case 5: return (field, .fixed32(try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }))
        default: throw WebcamError.detector("\(file): byte \(offset): unknown wire type \(key & 7)")
        }
    }
}
