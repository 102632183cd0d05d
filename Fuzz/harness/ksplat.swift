// Fuzz harness (ksplat): feeds libFuzzer's bytes straight to the reader; errors are fine, crashes are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let view = ByteView(bytes: raw, file: "fuzz.ksplat")
    _ = try? KSplatReader.read(view, progress: nil)
    return 0
}
