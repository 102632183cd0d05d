#!/usr/bin/env python3
"""Serves a folder of JPEG files, in name order and looped, as an MJPEG-over-HTTP camera
(multipart/x-mixed-replace, as phone and IP-camera apps do) on the loopback.

Usage: Scripts/serve-mjpeg.py DIR [--fps 30] [--port 8088]
Then: splatframe cube --head webcam:http://127.0.0.1:8088/video.mjpg
Standard library only; one client at a time; Ctrl-C stops it."""
import argparse, os, socket, sys, time

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--fps", type=float, default=30)
    ap.add_argument("--port", type=int, default=8088)
    a = ap.parse_args()
    names = sorted(n for n in os.listdir(a.dir) if n.lower().endswith((".jpg", ".jpeg")))
    if not names:
        sys.exit(f"serve-mjpeg: no .jpg files in {a.dir}")
    frames = [open(os.path.join(a.dir, n), "rb").read() for n in names]
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", a.port))
    server.listen(1)
    print(f"serve-mjpeg: {len(frames)} frames at {a.fps:g} fps on http://127.0.0.1:{a.port}/video.mjpg", flush=True)
    while True:
        client, _ = server.accept()
        try:
            client.recv(4096)   # the request; any path is served
            client.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n")
            start, k = time.monotonic(), 0
            while True:
                jpeg = frames[k % len(frames)]
                client.sendall(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg) + jpeg + b"\r\n")
                k += 1
                time.sleep(max(0, start + k / a.fps - time.monotonic()))   # paced, not drifting
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            client.close()

if __name__ == "__main__":
    main()
