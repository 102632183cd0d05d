// Fuzz harness (gltfsplat): bytes as a .glb or .gltf to our KHR_gaussian_splatting reader (no files
// beside it: external buffers are refused; SPZ-compressed primitives go through SPZReader), then
// the JSON rewrite that gives the importer the meshes of a file holding both (`GLTFMeshPart`);
// errors are fine, crashes are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let view = ByteView(bytes: raw, file: "fuzz.glb")
    _ = try? GLTFSplatReader.readIfSplats(view, directory: nil)
    if let (json, _, _) = try? GLTFContainer.chunks(view) {
        _ = try? GLTFMeshPart.meshesOnly(json, file: "fuzz.glb", bufferFolder: "/models", from: "/tmp/fuzz")
    }
    return 0
}
