// ZipReading — read-only ZIP archives through libzip: SceneIO's bundled SOG and WebcamTracking's
// MediaPipe model bundle (`face_landmarker.task`).
//
// Job: `ZipArchive` opens an archive held in memory, or a file on disk read entry by entry
// (`ZipFileSource`: the central directory, then only the entries asked for), and returns an
// entry's uncompressed bytes; `ZipEntry` reads one entry of a ZIP file on disk.
// Contract: memory is bounded by the caller's cap — an entry whose declared size is over the cap
// is refused before any inflating, and no more than the declared size is ever read (then one more
// read must find the end, where libzip checks the CRC). Errors are `ZipError`, naming the archive
// and the entry; readers above word them in their own error types.
