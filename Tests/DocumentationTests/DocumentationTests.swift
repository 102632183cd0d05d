// DocumentationTests — the README and Docs/*.md name only things that exist: `Sources/…` paths,
// backticked type names, relative links; and the README stays short. Reads files only (no
// project module is imported), so it runs without building anything else.
import Foundation
import Testing

/// The documentation files and the source tree they describe.
enum DocumentationTree {
    /// The package root: the first folder above this file that holds Package.swift.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// README.md and every Markdown file in Docs/, as paths relative to the root.
    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
    }

    static func read(_ relative: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)) ?? ""
    }

    static func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path)
    }

    /// Every match of `pattern` in `text`: capture group `group` (0 = the whole match).
    static func matches(_ pattern: String, in text: String, group: Int = 1) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            let r = m.range(at: group)
            return r.location == NSNotFound ? nil : ns.substring(with: r)
        }
    }

    /// Files under Sources/ whose names end with `suffix`, relative to the root.
    static func sourceFiles(endingWith suffix: String) -> [String] {
        let sources = root.appendingPathComponent("Sources").resolvingSymlinksInPath().path
        return (FileManager.default.subpaths(atPath: sources) ?? []).filter { $0.hasSuffix(suffix) }.map { "Sources/" + $0 }
    }

    /// Names a backticked type may refer to: Swift declarations (and extensions) under
    /// Sources/, C types declared in its headers, and the module names (folders of Sources/).
    static func declaredNames() -> Set<String> {
        var names = Set<String>()
        for file in sourceFiles(endingWith: ".swift") {
            names.formUnion(matches(#"\b(?:class|struct|enum|protocol|actor|typealias|extension)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
                                    in: read(file)))
        }
        for file in sourceFiles(endingWith: ".h") {
            let text = read(file)
            names.formUnion(matches(#"\b(?:struct|enum|union)\s+([A-Za-z_][A-Za-z0-9_]*)"#, in: text))
            names.formUnion(matches(#"typedef\s+[^;{]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*;"#, in: text))
            names.formUnion(matches(#"\}\s*([A-Za-z_][A-Za-z0-9_]*)\s*;"#, in: text))
        }
        let sources = root.appendingPathComponent("Sources").path
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? [] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: sources + "/" + entry, isDirectory: &isDirectory), isDirectory.boolValue {
                names.insert(entry)
            }
        }
        return names
    }

    /// The UpperCamelCase type names a doc writes in backticks: `FrameDriver`,
    /// `Scene.advance(to:)` (Scene), `LatencyMeter.Summary` (both). Spans with a slash or a
    /// space (paths, command lines) and file names (`Package.swift`) are not type names.
    static func backtickedTypeNames(in text: String) -> [String] {
        let fileName = #"\.(swift|md|json|png|jpe?g|ply|spz|splat|sog|obj|mtl|stl|avi|mp4|mkv|webm|mov|gif|glb|csv|txt|tflite|xml|so|sh|py|c|h|cpp|pfm|webp|zip)$"#
        var names: [String] = []
        for span in matches("`([^`\n]+)`", in: text) {
            let s = span.trimmingCharacters(in: .whitespaces)
            if s.contains("/") || s.contains(" ") { continue }
            if !s.contains("("), !matches(fileName, in: s.lowercased(), group: 0).isEmpty { continue }
            guard !matches(#"^[A-Z][A-Za-z0-9]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(.*\))?$"#, in: s, group: 0).isEmpty else { continue }
            let head = s.split(separator: "(", maxSplits: 1).first.map(String.init) ?? s
            for part in head.split(separator: ".").map(String.init) where isUpperCamelCase(part) {
                names.append(part)
            }
        }
        return names
    }

    /// Starts with a capital letter and has a lower-case one (`FrameDriver`, not `README` or `PACKAGES`).
    static func isUpperCamelCase(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first) else { return false }
        return s.unicodeScalars.contains { CharacterSet.lowercaseLetters.contains($0) }
            && s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) }
    }
}

@Suite("Documentation")
struct DocumentationTests {
    @Test func readmeIsAtMost200Lines() {
        let text = DocumentationTree.read("README.md")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        #expect(!text.isEmpty, "README.md is missing or empty")
        #expect(lines.count <= 200, "README.md has \(lines.count) lines; at most 200 (move detail into Docs/)")
    }

    @Test func sourcePathsExist() {
        for doc in DocumentationTree.documents {
            let text = DocumentationTree.read(doc)
            for match in DocumentationTree.matches(#"(?<![\w/.])(Sources/[A-Za-z0-9_+./-]*)"#, in: text) {
                var path = match
                while let last = path.last, ".,;:".contains(last) { path.removeLast() }
                #expect(DocumentationTree.exists(path), "\(doc) names \(path), which does not exist")
            }
        }
    }

    @Test func backtickedTypeNamesAreDeclared() {
        let declared = DocumentationTree.declaredNames()
        #expect(declared.contains("Viewer"), "found no modules under \(DocumentationTree.root.path)/Sources")
        for doc in DocumentationTree.documents {
            for name in Set(DocumentationTree.backtickedTypeNames(in: DocumentationTree.read(doc))).sorted() {
                #expect(declared.contains(name), "\(doc) names the type `\(name)`, which is declared nowhere under Sources/")
            }
        }
    }

    @Test func relativeLinksResolve() {
        for doc in DocumentationTree.documents {
            let folder = (doc as NSString).deletingLastPathComponent
            for target in DocumentationTree.matches(#"\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#, in: DocumentationTree.read(doc)) {
                if !DocumentationTree.matches(#"^[A-Za-z][A-Za-z0-9+.-]*:"#, in: target, group: 0).isEmpty { continue }  // https:, mailto:
                let file = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                if file.isEmpty { continue }  // an anchor in the same file
                let relative = folder.isEmpty ? file : folder + "/" + file
                let resolved = ((DocumentationTree.root.path + "/" + relative) as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: resolved), "\(doc) links to \(target), which does not exist")
            }
        }
    }
}
