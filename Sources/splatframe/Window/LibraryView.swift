// LibraryView — the scene library's grid in a window: draws thumbnails, names and counts into a
// framebuffer and turns key actions and mouse input into what the window should do (open this
// scene, go back, quit). It owns no window; the window loop hosts it as its library screen.
import CSDL2
import Downloads
import Foundation
import RenderCore
import Viewer
import Workers
import Library

/// The grid over a `SceneLibrary`. Frame loop only (not thread-safe).
///
/// Keys (`KeyBindings`): arrows move the selection (Home/End, Page Up/Down too), Enter opens it,
/// Esc goes back (the host decides: quit, or return to the scene), q quits. Mouse: a click on a
/// cell opens it, the wheel scrolls. A file dropped on the window opens too (the host).
final class LibraryView {
    /// What the host should do after an event.
    enum Action: Equatable {
        case none
        /// Open this scene (a path `SceneLoader` reads).
        case open(String)
        /// Esc: leave the grid (back to the scene shown before, or quit when there is none).
        case back
        /// q or the window closed: quit.
        case quit
    }

    let library: SceneLibrary
    /// The folders shown, for the header.
    let folders: [String]
    /// The selected cell.
    private(set) var selection = 0
    private var firstRow = 0
    private var hover: Int?
    private var message: (text: String, until: Double)?
    private var layout: LibraryGridLayout?
    private var announcedFinish = false
    /// `fit` and `wrap` results by width and text (measuring text costs a rasterisation).
    private var fitted: [String: String] = [:], wrapped: [String: [String]] = [:]

    // Colours (packed like Framebuffer pixels: 0xAABBGGRR).
    static let background: UInt32 = 0xFF20_1810
    static let placeholder: UInt32 = 0xFF3A_3430
    static let failedFill: UInt32 = 0xFF20_2048
    static let selectionColor: UInt32 = 0xFF60_C0F0
    static let hoverColor: UInt32 = 0xFF80_7060
    static let dim: UInt32 = 0xFFB0_A8A0
    static let errorText: UInt32 = 0xFF90_90FF

    init(library: SceneLibrary, folders: [String]) {
        self.library = library
        self.folders = folders
    }

    /// The grid of `folders` (default: `LibraryFolders.defaults()`), its thumbnails (`thumbnail`
    /// pixels, cached in the XDG cache) starting in the background on `threads` - 1 threads.
    static func start(folders: [String]? = nil, feeds: [(url: String, entries: [LibraryEntry])] = [],
                      thumbnail: (width: Int, height: Int) = (256, 144), threads: Int = CoreCount.available,
                      downloads: DownloadOptions = DownloadOptions(cacheFolder: nil)) -> LibraryView {
        let roots = folders ?? (feeds.isEmpty ? LibraryFolders.defaults() : [])
        let cache = ThumbnailCache(directory: LibraryFolders.thumbnailCache())
        let library = SceneLibrary(entries: LibraryScanner.scan(roots) + feeds.flatMap(\.entries), cache: cache,
                                   width: thumbnail.width, height: thumbnail.height, threads: max(1, threads - 1), downloads: downloads)
        let sources = roots + feeds.map(\.url)
        log("library: \(library.entries.count) scenes in \(sources.joined(separator: ", ")) (thumbnails in \(cache.directory))")
        library.start()
        return LibraryView(library: library, folders: sources)
    }

    /// The grid is shown: thumbnails go on (the selected one first).
    func activate() {
        library.resume()
        library.prioritize(selection)
    }

    /// The grid is hidden behind a scene: thumbnails wait, so the scene has the cores.
    func deactivate() { library.pause() }

    static func log(_ s: String) { FileHandle.standardError.write(Data("splatframe: \(s)\n".utf8)) }

    /// Shows `text` at the bottom of the grid for a while (e.g. why a scene did not open).
    func flash(_ text: String, seconds: Double = 6) { message = (text, MonotonicClock.now() + seconds) }

    /// Once, when every thumbnail is made: the line `draw` logs ("library: thumbnails ready …").
    func takeFinishReport() -> String? {
        let p = library.progress
        guard p.finished, !announcedFinish else { return nil }
        announcedFinish = true
        return "library: thumbnails ready (\(p.rendered) rendered, \(p.cacheHits) from the cache, \(p.failed) failed)"
    }

    // MARK: input

    /// Handles one event. `window` converts mouse positions (window units) to drawable pixels.
    /// A key's action on the grid (through `KeyBindings`).
    func perform(_ action: WindowAction) -> Action {
        switch action {
        case .moveSelection(let move):
            if let layout, !library.entries.isEmpty { select(layout.moved(selection, move)) }
        case .openSelection:
            return openSelection()
        case .back:
            return .back
        case .quit:
            return .quit
        default:
            break
        }
        return .none
    }

    /// Mouse input on the grid: hover, a click opens, the wheel scrolls.
    func pointer(_ event: SDL_Event, window: SDLWindow) -> Action {
        switch SDL_EventType(rawValue: event.type) {
        case SDL_MOUSEMOTION:
            let (x, y) = drawablePoint(Int(event.motion.x), Int(event.motion.y), window: window)
            hover = layout?.hit(x: x, y: y, firstRow: firstRow)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let (x, y) = drawablePoint(Int(event.button.x), Int(event.button.y), window: window)
            if let i = layout?.hit(x: x, y: y, firstRow: firstRow) {
                select(i)
                return openSelection()
            }
        case SDL_MOUSEWHEEL:
            if let layout { firstRow = layout.clampedFirstRow(firstRow - Int(event.wheel.y)) }
        default:
            break
        }
        return .none
    }

    private func drawablePoint(_ x: Int, _ y: Int, window: SDLWindow) -> (Int, Int) {
        let d = window.drawableSize, w = window.windowSize
        return (x * d.width / max(1, w.width), y * d.height / max(1, w.height))
    }

    private func select(_ i: Int) {
        selection = i
        library.prioritize(i)
        if let layout { firstRow = layout.firstRow(showing: i, current: firstRow) }
    }

    private func openSelection() -> Action {
        guard library.entries.indices.contains(selection) else { return .none }
        if case .failed(let reason) = library.thumbnail(selection) {
            flash("Cannot open: \(reason)")
            return .none
        }
        return .open(library.entries[selection].path)
    }

    // MARK: drawing

    /// Draws the whole grid into `fb` (sized by the host); logs on stderr when the thumbnails are done.
    func draw(into fb: Framebuffer, text: WindowText) {
        if let line = takeFinishReport() { Self.log(line) }
        let snap = library.snapshot()
        let l = LibraryGridLayout(width: fb.width, height: fb.height, thumbnail: (library.width, library.height),
                                  lineHeight: text.lineHeight, count: library.entries.count)
        if layout != l {
            layout = l
            firstRow = l.firstRow(showing: selection, current: firstRow)
        }
        fb.clear(color: Self.background)
        drawHeader(snap.progress, into: fb, text: text, layout: l)
        if library.entries.isEmpty {
            let lines = ["No scene files in " + (folders.isEmpty ? "(no folders)" : folders.joined(separator: ", ")),
                         "PLY, .splat, .spz, .sog, SOG folders, OBJ, STL, glTF, FBX, DAE, 3DS and scene JSON are listed. Esc: quit"]
            for (i, line) in lines.enumerated() {
                text.draw(line, x: LibraryGridLayout.margin, y: LibraryGridLayout.headerHeight + i * text.lineHeight, into: fb,
                          color: Self.dim, maxWidth: fb.width - 2 * LibraryGridLayout.margin)
            }
        }
        for i in l.visibleCells(firstRow: firstRow) {
            drawCell(i, state: snap.thumbnails[i], into: fb, text: text, layout: l)
        }
        if let m = message, MonotonicClock.now() < m.until {
            let y = fb.height - text.lineHeight - 6
            fill(fb, x: 0, y: y - 4, width: fb.width, height: text.lineHeight + 10, color: 0xFF10_1030)
            text.draw(fit(m.text, fb.width - 16, text), x: 8, y: y, into: fb, color: Self.errorText)
        }
    }

    /// A line at the bottom of the grid (e.g. that a scene is open elsewhere).
    func drawNotice(_ notice: String, into fb: Framebuffer, text: WindowText) {
        let y = fb.height - text.lineHeight - 6
        fill(fb, x: 0, y: y - 4, width: fb.width, height: text.lineHeight + 10, color: 0xFF30_2010)
        text.draw(fit(notice, fb.width - 16, text), x: 8, y: y, into: fb)
    }

    private func drawHeader(_ p: SceneLibrary.Progress, into fb: Framebuffer, text: WindowText, layout l: LibraryGridLayout) {
        let m = LibraryGridLayout.margin
        let n = library.entries.count
        let title = "Scene library · \(n) scene\(n == 1 ? "" : "s") in " + folders.map(Self.shortPath).joined(separator: ", ")
        text.draw(fit(title, fb.width - 2 * m, text), x: m, y: 6, into: fb)
        let y2 = 6 + text.lineHeight
        if !p.finished {
            let label = "thumbnails \(p.done)/\(p.total)"
            text.draw(label, x: m, y: y2, into: fb, color: Self.dim)
            let x0 = m + text.width(label) + 12, w = fb.width - m - x0
            if w > 20 {
                let barY = y2 + text.lineHeight / 2 - 3
                fill(fb, x: x0, y: barY, width: w, height: 6, color: 0xFF50_4030)
                fill(fb, x: x0, y: barY, width: Int(Double(w) * p.fraction), height: 6, color: 0xFFF0_C060)
            }
        } else {
            text.draw(fit("arrows: select   Enter or click: open   Esc: back   q: quit", fb.width - 2 * m, text),
                      x: m, y: y2, into: fb, color: Self.dim)
        }
    }

    private func drawCell(_ i: Int, state: SceneLibrary.Thumbnail, into fb: Framebuffer, text: WindowText, layout l: LibraryGridLayout) {
        let r = l.thumbnailRect(i, firstRow: firstRow)
        let entry = library.entries[i]
        if i == selection || i == hover {
            let c = i == selection ? Self.selectionColor : Self.hoverColor
            fill(fb, x: r.x - 3, y: r.y - 3, width: r.width + 6, height: r.height + 6, color: c)
        }
        var detail = entry.formatHint
        var detailColor = Self.dim
        switch state {
        case .ready(let image, let info):
            blit(image, into: fb, rect: r)
            detail = info.summary
        case .pending:
            fill(fb, x: r.x, y: r.y, width: r.width, height: r.height, color: Self.placeholder)
            centred("…", in: r, fb: fb, text: text)
        case .loading(let fraction):
            fill(fb, x: r.x, y: r.y, width: r.width, height: r.height, color: Self.placeholder)
            centred(String(format: "rendering %.0f%%", fraction * 100), in: r, fb: fb, text: text)
            fill(fb, x: r.x + 8, y: r.y + r.height - 12, width: Int(Double(r.width - 16) * fraction), height: 4, color: 0xFFF0_C060)
        case .failed(let reason):
            fill(fb, x: r.x, y: r.y, width: r.width, height: r.height, color: Self.failedFill)
            // The name is under the cell: the message need not start with the path.
            let shown = reason.hasPrefix(entry.path + ": ") ? String(reason.dropFirst(entry.path.count + 2)) : reason
            let lines = wrap(shown, r.width - 12, text).prefix(max(1, (r.height - 8) / text.lineHeight))
            for (k, line) in lines.enumerated() {
                text.draw(line, x: r.x + 6, y: r.y + 4 + k * text.lineHeight, into: fb, color: Self.errorText, maxWidth: r.width - 8)
            }
            detail = "\(entry.formatHint) · error"
            detailColor = Self.errorText
        }
        let y = r.y + r.height + 4
        text.draw(fit(entry.displayName, r.width, text), x: r.x, y: y, into: fb, maxWidth: r.width)
        text.draw(fit(detail, r.width, text), x: r.x, y: y + text.lineHeight, into: fb, color: detailColor, maxWidth: r.width)
    }

    private func centred(_ s: String, in r: LibraryGridLayout.Rect, fb: Framebuffer, text: WindowText) {
        text.draw(s, x: r.x + (r.width - text.width(s)) / 2, y: r.y + (r.height - text.lineHeight) / 2, into: fb, maxWidth: r.width)
    }

    /// Copies `image` into `rect` (nearest-neighbour when the sizes differ), clipped to `fb`.
    private func blit(_ image: RGBAImage, into fb: Framebuffer, rect r: LibraryGridLayout.Rect) {
        let y0 = max(0, r.y), y1 = min(fb.height, r.y + r.height)
        let x0 = max(0, r.x), x1 = min(fb.width, r.x + r.width)
        guard x0 < x1, y0 < y1 else { return }
        image.pixels.withUnsafeBufferPointer { src in
            for y in y0..<y1 {
                let sy = (y - r.y) * image.height / r.height
                let dst = fb.color + y * fb.width
                for x in x0..<x1 { dst[x] = src[sy * image.width + (x - r.x) * image.width / r.width] | 0xFF00_0000 }
            }
        }
    }

    private func fill(_ fb: Framebuffer, x: Int, y: Int, width: Int, height: Int, color: UInt32) {
        let x0 = max(0, x), x1 = min(fb.width, x + width), y0 = max(0, y), y1 = min(fb.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 { (fb.color + row * fb.width + x0).update(repeating: color, count: x1 - x0) }
    }

    /// `s`, cut with "…" to fit `width` pixels.
    private func fit(_ s: String, _ width: Int, _ text: WindowText) -> String {
        let key = "\(width)|\(s)"
        if let f = fitted[key] { return f }
        var result = s
        if text.width(s) > width {
            var t = Substring(s)
            while !t.isEmpty && text.width(t + "…") > width { t = t.dropLast(max(1, t.count / 8)) }
            result = t + "…"
        }
        if fitted.count > 1000 { fitted.removeAll() }
        fitted[key] = result
        return result
    }

    /// `s` broken into lines of at most `width` pixels (at spaces, else anywhere).
    private func wrap(_ s: String, _ width: Int, _ text: WindowText) -> [String] {
        let key = "\(width)|\(s)"
        if let w = wrapped[key] { return w }
        let lines = wrapLines(s, width, text)
        if wrapped.count > 200 { wrapped.removeAll() }
        wrapped[key] = lines
        return lines
    }

    private func wrapLines(_ s: String, _ width: Int, _ text: WindowText) -> [String] {
        var lines: [String] = [], line = ""
        for word in s.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if text.width(candidate) <= width { line = candidate; continue }
            if !line.isEmpty { lines.append(line) }
            var rest = String(word)
            while text.width(rest) > width && rest.count > 1 {
                var n = rest.count - 1
                while n > 1 && text.width(String(rest.prefix(n))) > width { n -= max(1, n / 8) }
                lines.append(String(rest.prefix(n)))
                rest = String(rest.dropFirst(n))
            }
            line = rest
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A path with the home folder as `~`.
    static func shortPath(_ p: String) -> String {
        let home = NSHomeDirectory()
        return p.hasPrefix(home + "/") ? "~" + p.dropFirst(home.count) : p
    }
}
