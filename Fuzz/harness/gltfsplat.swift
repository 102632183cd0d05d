// Fuzz harness (gltfsplat): bytes as a .glb or .gltf to our KHR_gaussian_splatting reader (no files
// beside it: external buffers are refused); errors are fine, crashes are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let view = ByteView(bytes: raw, file: "fuzz.glb")
    _ = try? GLTFSplatReader.readIfSplats(view, directory: nil)
    return 0
}
