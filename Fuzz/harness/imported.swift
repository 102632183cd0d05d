// Fuzz harness (imported): the importer child process's output as the parent decodes it
// (`ImportedModel.decode`, then the mesh built from it); errors are fine, crashes are not.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let model = try? ImportedModel.decode(bytes, file: "fuzz.bin") {
        _ = ImportedModelReader.convert(model, file: "fuzz.bin", format: .gltf, directory: nil)
    }
    return 0
}
