// SceneIO — GLTFAccessor: one glTF accessor checked against its buffer view and buffer, and read
// as floats (normalised integers mapped as glTF 2.0 §3.11 says).
//
// Contract: `resolve` checks everything a read touches — the accessor's index, its bufferView
// and buffer, the component type and element type against what the caller accepts, `count`,
// the byte stride (≥ the element size, a multiple of 4, ≤ 252), the alignment, and that the last
// element ends inside the bufferView and the bufferView inside its buffer — so `floats` never
// reads out of bounds and allocates at most `count × components` floats for a `count` the bytes
// can hold. Sparse accessors and accessors without a bufferView are refused. Every refusal is one
// line naming the file and the accessor index (and the attribute it was read for).
import Foundation
import JSONInput

/// A checked view of one accessor's elements.
struct GLTFAccessor {
    /// glTF component types.
    enum Component: Int {
        case int8 = 5120, uint8 = 5121, int16 = 5122, uint16 = 5123, uint32 = 5125, float = 5126
        /// Bytes per component.
        var size: Int {
            switch self {
            case .int8, .uint8: return 1
            case .int16, .uint16: return 2
            case .uint32, .float: return 4
            }
        }
        /// The name the glTF specification uses ("unsigned byte", …).
        var name: String {
            switch self {
            case .int8: return "signed byte"
            case .uint8: return "unsigned byte"
            case .int16: return "signed short"
            case .uint16: return "unsigned short"
            case .uint32: return "unsigned int"
            case .float: return "float"
            }
        }
    }

    /// Index in the document's `accessors`.
    let index: Int
    let component: Component
    let normalized: Bool
    /// Components per element (SCALAR 1, VEC3 3, VEC4 4).
    let components: Int
    let count: Int
    /// Buffer index, first byte of element 0 in it, bytes between elements.
    let buffer: Int, start: Int, stride: Int

    /// "float", "normalized unsigned byte", … (for `info`).
    var typeName: String { (normalized ? "normalized " : "") + component.name }

    static let typeComponents = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16]

    /// Checks accessor `index` of `doc` for reading as `type` ("VEC3", …) with one of `allowed`
    /// component types; `what` names the attribute in errors.
    static func resolve(_ index: Int, in doc: GLTFContainer, type: String, allowed: [Component], what: String) throws -> GLTFAccessor {
        let file = doc.file
        let entry = "accessor \(index) (\(what))"
        func bad(_ expected: String, _ found: String) -> SceneIOError {
            .badEntry(file: file, entry: entry, expected: expected, found: found)
        }
        do {
            let accessors = try doc.json.optional("accessors")?.array() ?? []
            guard index >= 0, index < accessors.count else {
                throw bad("an accessor index below \(accessors.count)", "\(index)")
            }
            let a = accessors[index]
            guard try a.optional("sparse") == nil else { throw bad("a dense accessor", "a sparse one (not read)") }
            guard let bvNode = try a.optional("bufferView") else { throw bad("a bufferView", "none (zero-filled accessors are not read)") }
            let raw = try a.required("componentType", "a component type").integer()
            guard let component = Component(rawValue: raw) else { throw bad("a glTF component type", "\(raw)") }
            guard allowed.contains(component) else {
                throw bad(allowed.map(\.name).joined(separator: ", ") + " components", component.name)
            }
            let normalized = try a.optional("normalized")?.bool() ?? false
            if normalized && (component == .float || component == .uint32) {
                throw bad("normalized only on byte or short components", "normalized \(component.name)")
            }
            let t = try a.required("type", "an element type").string()
            guard t == type, let components = typeComponents[t] else { throw bad(type, JSONNode.describe(t)) }
            let count = try a.required("count", "an element count").integer(in: 1...Int(Int32.max), "an element count ≥ 1")
            let byteOffset = try a.optional("byteOffset")?.integer(in: 0...Int(Int32.max), "a byte offset") ?? 0

            let views = try doc.json.optional("bufferViews")?.array() ?? []
            let bvIndex = try bvNode.integer()
            guard bvIndex >= 0, bvIndex < views.count else { throw bad("a bufferView index below \(views.count)", "\(bvIndex)") }
            let bv = views[bvIndex]
            let buffer = try bv.required("buffer", "a buffer index").integer()
            guard buffer >= 0, buffer < doc.buffers.count else {
                throw bad("bufferView \(bvIndex)'s buffer index below \(doc.buffers.count)", "\(buffer)")
            }
            let bvOffset = try bv.optional("byteOffset")?.integer(in: 0...Int.max / 4, "a byte offset") ?? 0
            let bvLength = try bv.required("byteLength", "a length").integer(in: 1...Int.max / 4, "a length ≥ 1")
            let declared = try doc.json.optional("buffers")?.array()[buffer].required("byteLength", "a length").integer() ?? 0
            guard bvOffset + bvLength <= declared else {
                throw bad("bufferView \(bvIndex) inside buffer \(buffer) (\(declared) bytes)", "bytes \(bvOffset)…\(bvOffset + bvLength)")
            }
            let element = components * component.size
            var stride = element
            if let s = try bv.optional("byteStride") {
                stride = try s.integer(in: 4...252, "a byte stride of 4…252")
                guard stride % 4 == 0, stride >= element else {
                    throw bad("bufferView \(bvIndex)'s byte stride a multiple of 4 and ≥ \(element)", "\(stride)")
                }
            }
            guard byteOffset % component.size == 0, (bvOffset + byteOffset) % component.size == 0 else {
                throw bad("an offset aligned to \(component.size) bytes", "\(bvOffset + byteOffset)")
            }
            // The last element must end inside the view; count ≤ Int32.max and stride ≤ 252 cannot overflow.
            let end = byteOffset + (count - 1) * stride + element
            guard end <= bvLength else {
                throw bad("\(count) elements inside bufferView \(bvIndex) (\(bvLength) bytes)", "they end at byte \(end)")
            }
            return GLTFAccessor(index: index, component: component, normalized: normalized, components: components, count: count,
                                buffer: buffer, start: bvOffset + byteOffset, stride: stride)
        } catch let e as JSONPathError {
            throw SceneIOError.badEntry(file: file, entry: "\(entry) \(e.shortPath)", expected: e.expected, found: e.found)
        }
    }

    /// The elements as floats, `components` per element, element after element. Normalised
    /// integers map as glTF says: unsigned c / max, signed max(c / max, −1).
    func floats(_ doc: GLTFContainer) -> [Float] {
        var out = [Float](repeating: 0, count: count * components)
        let k = components, step = stride, first = start, c = component, norm = normalized
        doc.buffers[buffer].withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    let o = first + i * step
                    for j in 0..<k {
                        let v: Float
                        switch c {
                        case .float: v = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o + 4 * j, as: UInt32.self)))
                        case .uint8:
                            let x = Float(raw[o + j]); v = norm ? x / 255 : x
                        case .int8:
                            let x = Float(Int8(bitPattern: raw[o + j])); v = norm ? max(x / 127, -1) : x
                        case .uint16:
                            let x = Float(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 2 * j, as: UInt16.self)))
                            v = norm ? x / 65535 : x
                        case .int16:
                            let x = Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 2 * j, as: Int16.self)))
                            v = norm ? max(x / 32767, -1) : x
                        case .uint32:
                            v = Float(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o + 4 * j, as: UInt32.self)))
                        }
                        dst[i * k + j] = v
                    }
                }
            }
        }
        return out
    }
}
