// Export — a head-track replay rendered frame by frame (frame i at i/fps s) into a PNG sequence
// or a video through the ffmpeg command. Deterministic: two exports of one log give equal frames.
