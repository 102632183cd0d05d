// ZipReadingTests — ZipArchive and ZipEntry against archives libzip writes here: stored and
// deflated entries read back, and each refusal as a `ZipError` naming the archive and the entry
// (missing, over the cap before inflating, a size that lies, not a ZIP, no such file); an archive
// opened from its file reads the central directory, then only the entries asked for.
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

    @Test(arguments: [false, true])
    func anArchiveFromItsFileReadsEntryByEntry(deflate: Bool) throws {
        // Two megabytes no one asks for: opening and reading the small entries must not read them.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let big: [UInt8] = (0..<(2 << 20)).map { _ in   // xorshift: incompressible, so deflating keeps its size
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
        let path = try writeZip([("meta.json", Self.text), ("big.bin", big), ("dir/b.bin", Self.binary)], deflate: deflate)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let zip = try ZipArchive(path: path)
        #expect(zip.file == path && zip.contains("big.bin"))
        #expect(zip.fileBytesRead > 0 && zip.fileBytesRead < 128 << 10, "opening read \(zip.fileBytesRead) of \(size) bytes")
        #expect(Array(try zip.read("meta.json", cap: 1 << 20)) == Self.text)
        #expect(Array(try zip.read("dir/b.bin", cap: 1 << 20)) == Self.binary)
        #expect(zip.fileBytesRead < size / 4, "the small entries read \(zip.fileBytesRead) of \(size) bytes")
        #expect(Array(try zip.read("big.bin", cap: 4 << 20)) == big)
        #expect(zip.fileBytesRead >= size / 2)
    }

    @Test func anEntryIsReadFromTheFileWhenAskedFor() throws {
        // Damage an entry on disk after opening: the archive reads the file, not a copy, so the
        // damage shows (a CRC error) while the untouched entry still reads back.
        let path = try writeZip([("meta.json", Self.text), ("dir/b.bin", Self.binary)], deflate: false)
        let zip = try ZipArchive(path: path)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let at = try #require((0..<(bytes.count - 64)).first { Array(bytes[$0..<($0 + 64)]) == Array(Self.binary.prefix(64)) })
        for i in at..<(at + 64) { bytes[i] ^= 0xff }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        #expect(Array(try zip.read("meta.json", cap: 1 << 20)) == Self.text)
        #expect { try zip.read("dir/b.bin", cap: 1 << 20) } throws: { e in
            guard case let ZipError.badEntry(file, entry, _, _)? = e as? ZipError else { return false }
            return file == path && entry == "dir/b.bin"
        }
    }

    @Test func aPathThatIsNoArchiveIsRefused() throws {
        let dir = TestData.temporaryDirectory("zip-path")
        let text = dir.appendingPathComponent("a.txt").path
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: text))
        #expect { try ZipArchive(path: text) } throws: { e in
            guard case let ZipError.notAnArchive(file, _)? = e as? ZipError else { return false }
            return file == text && !"\(e)".contains("\n")
        }
        for (path, reason) in [(dir.appendingPathComponent("none.zip").path, "no such file"), (dir.path, "not a regular file")] {
            #expect(throws: ZipError.unreadable(file: path, reason: reason)) { try ZipArchive(path: path) }
        }
    }
}
