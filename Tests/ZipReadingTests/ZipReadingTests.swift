// ZipReadingTests — ZipArchive and ZipEntry against archives libzip writes here: stored and
// deflated entries read back, and each refusal as a `ZipError` naming the archive and the entry
// (missing, over the cap before inflating, a size that lies, not a ZIP, no such file).
import CZip
import Foundation
import Testing
import TestSupport
import ZipReading

@Suite struct ZipReadingTests {
    static let text = Array(String(repeating: "a splat, a splat, a splat. ", count: 200).utf8)
    static let binary: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }

    /// A ZIP file written by libzip with `entries`, stored or deflated; returns its path.
    func writeZip(_ entries: [(String, [UInt8])], deflate: Bool) throws -> String {
        let path = TestData.temporaryDirectory("zip-reading").appendingPathComponent("a.zip").path
        var err: Int32 = 0
        let za = try #require(zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err))
        for (name, bytes) in entries {
            // libzip frees the copy (freep = 1) once written.
            let copy = try #require(malloc(max(1, bytes.count)))
            bytes.withUnsafeBytes { if let b = $0.baseAddress { copy.copyMemory(from: b, byteCount: bytes.count) } }
            let source = try #require(zip_source_buffer(za, copy, UInt64(bytes.count), 1))
            let index = zip_file_add(za, name, source, ZIP_FL_OVERWRITE)
            try #require(index >= 0)
            #expect(zip_set_file_compression(za, UInt64(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) == 0)
        }
        try #require(zip_close(za) == 0)
        return path
    }

    func archiveBytes(deflate: Bool) throws -> [UInt8] {
        let path = try writeZip([("meta.json", Self.text), ("dir/b.bin", Self.binary)], deflate: deflate)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `body` with an archive opened over `bytes` (kept alive meanwhile).
    func withArchive(_ bytes: [UInt8], _ body: (ZipArchive) throws -> Void) throws {
        try bytes.withUnsafeBytes { try body(try ZipArchive(bytes: $0, file: "a.zip")) }
    }

    @Test(arguments: [false, true])
    func entriesReadBackStoredOrDeflated(deflate: Bool) throws {
        try withArchive(try archiveBytes(deflate: deflate)) { zip throws in
            #expect(zip.contains("meta.json") && zip.contains("dir/b.bin") && !zip.contains("META.JSON"))
            #expect(Array(try zip.read("meta.json", cap: Self.text.count)) == Self.text)
            #expect(Array(try zip.read("dir/b.bin", cap: 1 << 20)) == Self.binary)
        }
    }

    @Test func aMissingEntryOrOneOverTheCapIsABadEntry() throws {
        try withArchive(try archiveBytes(deflate: true)) { zip throws in
            #expect(throws: ZipError.badEntry(file: "a.zip", entry: "nope", expected: "a ZIP entry of that name", found: "no such entry")) {
                try zip.read("nope", cap: 100)
            }
            // The declared size is checked before inflating: one byte under it is refused.
            #expect(throws: ZipError.badEntry(file: "a.zip", entry: "meta.json", expected: "at most \(Self.text.count - 1) uncompressed bytes",
                                              found: "\(Self.text.count) bytes declared")) {
                try zip.read("meta.json", cap: Self.text.count - 1)
            }
        }
    }

    @Test func anEntryLongerThanItsHeadersSayIsRefused() throws {
        var z = try archiveBytes(deflate: true)
        // Both headers of meta.json declare 100 bytes fewer than it inflates to.
        let size = Self.text.count, lie = size - 100
        for (signature, at) in [([0x50, 0x4b, 0x03, 0x04] as [UInt8], 22), ([0x50, 0x4b, 0x01, 0x02], 24)] {
            for o in 0..<(z.count - 46) where Array(z[o..<(o + 4)]) == signature
                && Int(z[o + at]) | Int(z[o + at + 1]) << 8 | Int(z[o + at + 2]) << 16 == size {
                z[o + at] = UInt8(lie & 255); z[o + at + 1] = UInt8((lie >> 8) & 255); z[o + at + 2] = UInt8(lie >> 16)
            }
        }
        try withArchive(z) { zip throws in
            #expect { try zip.read("meta.json", cap: 1 << 20) } throws: { e in
                guard case let ZipError.badEntry(file, entry, _, _)? = e as? ZipError else { return false }
                return file == "a.zip" && entry == "meta.json" && !"\(e)".contains("\n")
            }
        }
    }

    @Test func bytesThatAreNotAZipAreRefused() throws {
        for bytes in [Array("{\"version\":2}".utf8), Array("PK\u{3}\u{4}garbage".utf8), Array(try archiveBytes(deflate: false).prefix(100))] {
            #expect { try withArchive(bytes) { _ in () } } throws: { e in
                guard case let ZipError.notAnArchive(file, reason)? = e as? ZipError else { return false }
                return file == "a.zip" && !reason.isEmpty && "\(e)".hasPrefix("a.zip: not a ZIP archive (")
            }
        }
    }

    @Test func oneEntryOfAFileOnDisk() throws {
        let path = try writeZip([("geometry.binarypb", Self.binary)], deflate: true)
        #expect(Array(try ZipEntry.read("geometry.binarypb", inFile: path, cap: 1 << 20)) == Self.binary)
        #expect(throws: ZipError.self) { try ZipEntry.read("other", inFile: path, cap: 1 << 20) }
        #expect { try ZipEntry.read("x", inFile: "/nonexistent/a.task", cap: 10) } throws: { e in
            guard case let ZipError.unreadable(file, _)? = e as? ZipError else { return false }
            return file == "/nonexistent/a.task"
        }
    }
}
