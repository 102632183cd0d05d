// LibraryGridLayout — where the library grid puts each cell in a framebuffer, which cell a
// click hits, and how the selection moves and the rows scroll. Pure arithmetic, no SDL.

/// The grid's geometry for a framebuffer of `width`×`height` pixels.
///
/// A header of `headerHeight` pixels (title, progress bar) on top; below it rows of cells, as
/// many columns as fit (at least one), centred. A cell is a thumbnail (`thumbWidth`×`thumbHeight`,
/// scaled down to fit a narrow window) over `textLines` lines of text. With a 640×360 window and
/// 256×144 thumbnails: two columns, thumbnails at x = 56 and 328, y = 56 (row 0).
public struct LibraryGridLayout: Sendable, Equatable {
    /// A rectangle in pixels, (x, y) its top-left.
    public struct Rect: Sendable, Equatable {
        public var x, y, width, height: Int
        public func contains(_ px: Int, _ py: Int) -> Bool { px >= x && py >= y && px < x + width && py < y + height }
    }

    public static let margin = 16, gap = 16, headerHeight = 56, textLines = 2

    public let width: Int, height: Int
    /// Thumbnail size as drawn (the library's, or smaller in a narrow window).
    public let thumbWidth: Int, thumbHeight: Int
    public let lineHeight: Int
    public let columns: Int
    /// Number of cells.
    public let count: Int

    /// - Parameters:
    ///   - thumbnail: the library's thumbnail size.
    ///   - lineHeight: the text's line height in pixels.
    public init(width: Int, height: Int, thumbnail: (width: Int, height: Int), lineHeight: Int, count: Int) {
        self.width = max(1, width); self.height = max(1, height); self.lineHeight = max(1, lineHeight); self.count = max(0, count)
        let m = Self.margin, g = Self.gap
        let available = max(1, self.width - 2 * m)
        let tw = max(16, min(thumbnail.width, available))
        thumbWidth = tw
        thumbHeight = max(9, thumbnail.height * tw / max(1, thumbnail.width))
        columns = max(1, (available + g) / (tw + g))
    }

    /// Cell pitch: width of a cell plus the gap, and its height plus the gap.
    public var cellPitch: (x: Int, y: Int) { (thumbWidth + Self.gap, cellHeight + Self.gap) }
    /// A cell's height: the thumbnail and its text lines.
    public var cellHeight: Int { thumbHeight + 4 + Self.textLines * lineHeight }
    /// Rows in all.
    public var rows: Int { (count + columns - 1) / columns }
    /// Rows that fit below the header, at least one.
    public var visibleRows: Int { max(1, (height - Self.headerHeight + Self.gap) / cellPitch.y) }
    /// Left edge of column 0 (the grid is centred).
    public var left: Int { max(Self.margin, (width - (columns * cellPitch.x - Self.gap)) / 2) }

    /// The thumbnail's rectangle of cell `index`, with `firstRow` scrolled to the top.
    public func thumbnailRect(_ index: Int, firstRow: Int) -> Rect {
        let row = index / columns - firstRow, col = index % columns
        return Rect(x: left + col * cellPitch.x, y: Self.headerHeight + row * cellPitch.y, width: thumbWidth, height: thumbHeight)
    }

    /// The whole cell's rectangle (thumbnail and text).
    public func cellRect(_ index: Int, firstRow: Int) -> Rect {
        var r = thumbnailRect(index, firstRow: firstRow)
        r.height = cellHeight
        return r
    }

    /// The cells shown with `firstRow` on top.
    public func visibleCells(firstRow: Int) -> Range<Int> {
        let lo = min(count, max(0, firstRow) * columns)
        return lo..<min(count, lo + (visibleRows + 1) * columns)
    }

    /// The cell under pixel (x, y), if any.
    public func hit(x: Int, y: Int, firstRow: Int) -> Int? {
        guard y >= Self.headerHeight else { return nil }
        for i in visibleCells(firstRow: firstRow) where cellRect(i, firstRow: firstRow).contains(x, y) { return i }
        return nil
    }

    /// Directions the selection moves in.
    public enum Move: Sendable { case left, right, up, down, pageUp, pageDown, home, end }

    /// `selection` moved one step (clamped to the cells).
    public func moved(_ selection: Int, _ move: Move) -> Int {
        guard count > 0 else { return 0 }
        let s: Int
        switch move {
        case .left: s = selection - 1
        case .right: s = selection + 1
        case .up: s = selection - columns
        case .down: s = selection / columns == (count - 1) / columns ? selection : min(count - 1, selection + columns)
        case .pageUp: s = selection - columns * visibleRows
        case .pageDown: s = selection + columns * visibleRows
        case .home: s = 0
        case .end: s = count - 1
        }
        if move == .up && s < 0 { return selection }
        return min(count - 1, max(0, s))
    }

    /// The top row after scrolling just enough to show `selection`.
    public func firstRow(showing selection: Int, current: Int) -> Int {
        let row = selection / columns
        var first = current
        if row < first { first = row }
        if row >= first + visibleRows { first = row - visibleRows + 1 }
        return clampedFirstRow(first)
    }

    /// `first` kept within the rows (no empty space below the last row when it can be avoided).
    public func clampedFirstRow(_ first: Int) -> Int { max(0, min(first, rows - visibleRows)) }
}
