// SceneLibrary — the library's model: the scenes found, and their thumbnails, made on a
// background thread (cache first, then rendering) while the grid polls their state.
import Viewer
import Downloads
import Foundation
import RenderCore
import Workers

/// The scenes of the library and their thumbnails.
///
/// `start()` runs one background thread: first every cached thumbnail is read (fast: the grid
/// fills at once on a second run), then the rest are rendered one by one — the scene the
/// grid asks for (`prioritize`) first — and stored in the cache. A scene that fails to load
/// or render becomes `.failed` with the loader's one-line message; the thread goes on.
/// The grid reads everything through `snapshot()`, a short critical section that never
/// waits for a render. Thread-safe.
///
/// ```swift
/// let library = SceneLibrary(entries: LibraryScanner.scan(LibraryFolders.defaults()),
///                            cache: ThumbnailCache(directory: LibraryFolders.thumbnailCache()))
/// library.start()
/// let now = library.snapshot()   // every frame
/// ```
public final class SceneLibrary: Sendable {
    /// One scene's thumbnail.
    public enum Thumbnail: Sendable, Equatable {
        /// Not made yet.
        case pending
        /// Being loaded and rendered; `fraction` of the file read so far.
        case loading(fraction: Double)
        /// The picture (`width`×`height`) and what the scene holds.
        case ready(RGBAImage, LibraryItemInfo)
        /// The scene could not be loaded or drawn: the reason, one line.
        case failed(String)
    }

    /// How far the thumbnails are.
    public struct Progress: Sendable, Equatable {
        /// Scenes finished (ready or failed) and in all.
        public var done = 0, total = 0
        /// Thumbnails rendered by this library, read from the cache, and scenes that failed.
        public var rendered = 0, cacheHits = 0, failed = 0
        /// The scene being rendered's load fraction (0 when none).
        public var current = 0.0
        /// True once the background thread has gone through every scene.
        public var finished = false
        /// `done` plus the current scene's share, over `total` (1 when empty).
        public var fraction: Double { total == 0 ? 1 : min(1, (Double(done) + current) / Double(total)) }
    }

    /// What the grid draws, taken at one moment.
    public struct Snapshot: Sendable {
        public var thumbnails: [Thumbnail]
        public var progress: Progress
        /// Changes whenever anything above does (the grid may redraw only then).
        public var version: Int
    }

    /// The scenes, in grid order.
    public let entries: [LibraryEntry]
    /// Thumbnail size in pixels.
    public let width: Int, height: Int
    /// Where thumbnails are kept between runs (nil: not kept).
    public let cache: ThumbnailCache?
    /// Render threads and supersampling of the background renderer.
    private let threads: Int, supersample: Int
    /// Where online entries' pictures are downloaded (nil cache folder: temporary).
    private let downloads: DownloadOptions

    private struct Shared {
        var thumbnails: [Thumbnail]
        var progress: Progress
        var version = 0
        var started = false, cancelled = false, paused = false
        var priority: Int?
    }
    private let shared: Locked<Shared>
    /// Renders the thumbnails, one scene a step; holds the library only during a step.
    private let thread = BackgroundThread(name: "splatframe.thumbnails")
    /// Made by the first step; touched by the thread's steps only, one at a time.
    nonisolated(unsafe) private var renderer: ThumbnailRenderer?

    /// A library of `entries` with `width`×`height` thumbnails (default 256×144), cached in
    /// `cache`, rendered on `threads` threads at `supersample`× the size.
    public init(entries: [LibraryEntry], cache: ThumbnailCache?, width: Int = 256, height: Int = 144,
                threads: Int = max(1, CoreCount.available - 1), supersample: Int = 2,
                downloads: DownloadOptions = DownloadOptions(cacheFolder: nil)) {
        self.entries = entries; self.cache = cache; self.downloads = downloads
        self.width = max(1, width); self.height = max(1, height)
        self.threads = max(1, threads); self.supersample = max(1, supersample)
        shared = Locked(Shared(thumbnails: Array(repeating: .pending, count: entries.count),
                              progress: Progress(total: entries.count)))
    }

    /// Stops the thread after the scene being rendered (it may be the thread that lets go last).
    deinit {
        cancel()
        thread.stop(timeout: 0)
    }

    /// Starts the background thread (once; later calls do nothing).
    public func start() {
        let first = shared.withLock { s in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return }
        thread.start { [weak self] in self?.step() ?? false }
    }

    /// Stops after the scene being rendered (a load cannot be interrupted midway).
    public func cancel() { shared.withLock { $0.cancelled = true } }

    /// Holds rendering (after the current scene) while a scene is shown; `resume()` goes on.
    public func pause() { shared.withLock { $0.paused = true } }
    public func resume() { shared.withLock { $0.paused = false } }

    /// Renders scene `index` next if it is still pending (the grid's selection).
    public func prioritize(_ index: Int) {
        guard entries.indices.contains(index) else { return }
        shared.withLock { $0.priority = index }
    }

    /// Everything the grid needs, now.
    public func snapshot() -> Snapshot {
        shared.withLock { Snapshot(thumbnails: $0.thumbnails, progress: $0.progress, version: $0.version) }
    }

    /// How far the thumbnails are.
    public var progress: Progress { shared.withLock { $0.progress } }

    /// One scene's thumbnail state.
    public func thumbnail(_ index: Int) -> Thumbnail { shared.withLock { $0.thumbnails[index] } }

    /// Waits (polling) until every thumbnail is made or `timeout` seconds pass; true when finished.
    @discardableResult
    public func waitUntilFinished(timeout: Double) -> Bool {
        let until = MonotonicClock.now() + timeout
        while !progress.finished {
            if MonotonicClock.now() > until { return false }
            usleep(10_000)
        }
        return true
    }

    // MARK: the background thread

    /// One step of the thread: the cached thumbnails first (a second run shows the whole grid
    /// at once), then one scene rendered per step. False when nothing is left.
    private func step() -> Bool {
        guard let renderer else {
            loadCached()
            let r = ThumbnailRenderer(threads: threads)
            r.supersample = supersample
            r.downloads = downloads
            renderer = r
            return true
        }
        guard let i = nextPending() else { finish(); return false }
        render(i, with: renderer)
        return true
    }

    private func loadCached() {
        guard let cache else { return }
        for (i, entry) in entries.enumerated() {
            if shared.withLock({ $0.cancelled }) { return }
            let key = ThumbnailCache.key(for: entry, width: width, height: height)
            if let (image, info) = cache.load(key: key, width: width, height: height) {
                update { s in
                    s.thumbnails[i] = .ready(image, info)
                    s.progress.cacheHits += 1
                    s.progress.done += 1
                }
            }
        }
    }

    private func render(_ i: Int, with renderer: ThumbnailRenderer) {
        let entry = entries[i]
        update { $0.thumbnails[i] = .loading(fraction: 0) }
        var lastReport = 0.0
        do {
            let (image, info) = try renderer.render(entry, width: width, height: height) { [self] done, total in
                guard total > 0 else { return }
                let f = min(1, Double(done) / Double(total))
                guard f - lastReport >= 0.02 || f >= 1 else { return }
                lastReport = f
                update { s in
                    s.thumbnails[i] = .loading(fraction: f)
                    s.progress.current = f
                }
            }
            // A cache that cannot be written costs a re-render next time, nothing more.
            if let cache { try? cache.store(key: ThumbnailCache.key(for: entry, width: width, height: height), image: image, info: info) }
            update { s in
                s.thumbnails[i] = .ready(image, info)
                s.progress.rendered += 1
            }
        } catch {
            let message = String(describing: error)
            update { s in
                s.thumbnails[i] = .failed(message)
                s.progress.failed += 1
            }
        }
        update { s in
            s.progress.done += 1
            s.progress.current = 0
        }
    }

    private func finish() { update { $0.progress.finished = true } }

    private func update(_ body: (inout Shared) -> Void) {
        shared.withLock { s in
            body(&s)
            s.version &+= 1
        }
    }

    /// The next scene to render (the prioritised one if still pending, else the first
    /// pending), waiting while paused; nil when none is left or the library was cancelled.
    private func nextPending() -> Int? {
        while true {
            let (next, paused): (Int?, Bool) = shared.withLock { s in
                if s.cancelled { return (nil, false) }
                if s.paused { return (nil, true) }
                if let p = s.priority, case .pending = s.thumbnails[p] { s.priority = nil; return (p, false) }
                return (s.thumbnails.firstIndex { if case .pending = $0 { return true } else { return false } }, false)
            }
            if paused {
                if thread.isStopping { return nil }
                thread.pause(0.05)
                continue
            }
            return next
        }
    }
}
