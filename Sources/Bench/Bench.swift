// Bench — headless frame-time measurement: the runner (warm-up, repeats, per-stage times,
// allocations per frame, latency), sweeps, the JSON document and its comparison, the report.
//
// Contract: hermetic (no config file unless one is named); frames come from Viewer's FrameDriver,
// exactly as the window's; no terminal I/O (the executable prints the report).
