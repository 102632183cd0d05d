// Library — the scene library: finding scene files in folders (LibraryScanner), their
// thumbnails rendered headless on a background thread and cached on disk (SceneLibrary,
// ThumbnailRenderer, ThumbnailCache), and the grid's geometry (LibraryGridLayout). No SDL: the
// executable draws the grid.
