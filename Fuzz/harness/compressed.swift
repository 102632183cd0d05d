// Fuzz harness (compressed): feeds libFuzzer's bytes straight to the reader; errors are fine, crashes are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let view = ByteView(bytes: raw, file: "fuzz.compressed")
    if let h = try? PLYHeader.parse(view) { _ = try? PLYReader.readCompressed(h, view, progress: nil) }
    return 0
}
