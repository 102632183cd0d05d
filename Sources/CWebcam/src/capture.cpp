// capture.cpp — sfw_capture_*: frames from a V4L2 camera (cv::CAP_V4L2), a video file (FFmpeg)
// or a still image read as a one-frame video, delivered as tightly packed RGB888. Contract: see
// SplatFrameWebcam.h; a handle is used from one thread at a time; errors name the device/file.
#include "internal.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>

struct sfw_capture {
    enum Kind { Device, Video, Still, Stream } kind = Video;
    std::string name;      // "/dev/video0", the file path or the stream URL, for messages
    cv::VideoCapture cap;  // Device, Video
    cv::Mat pending;       // a decoded (BGR/gray/BGRA) frame not yet handed out
    cv::Mat decoded;       // Device, Video: the frame read, reused so steady reads allocate no frame
    cv::Mat still;         // Still: the image
    bool still_done = false;
    int width = 0, height = 0;
    double fps = 0;
    int frame_count = 0;
    double frame_time_ms = -1;  // Device: the back end's time stamp of the last frame read (V4L2 buffer time)
};

namespace {

using sfw::Failure;
using sfw::format;

bool has_image_extension(const std::string &path) {
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return false;
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    static const char *const image_exts[] = {"png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp",
                                             "ppm", "pgm", "pnm", "pbm", "jp2", "exr", "hdr"};
    for (const char *e : image_exts)
        if (ext == e) return true;
    return false;
}

std::string video_device_list() {
    glob_t g;
    std::string list;
    if (::glob("/dev/video*", 0, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) list += (list.empty() ? "" : " ") + std::string(g.gl_pathv[i]);
        ::globfree(&g);
    }
    return list.empty() ? "no /dev/video* devices on this machine" : "present: " + list;
}

// Reads the first frame of a freshly opened file into cap->pending; false when it cannot.
bool prime_video(sfw_capture *cap) {
    cv::Mat frame;
    if (!cap->cap.isOpened() || !cap->cap.read(frame) || frame.empty()) return false;
    cap->pending = frame;
    return true;
}

// FFmpeg logs to stderr by itself ("moov atom not found" for a file that is not a video),
// which would break the one-line error contract: OpenCV reads OPENCV_FFMPEG_LOGLEVEL when its
// FFmpeg backend starts, so ask for AV_LOG_QUIET (-8) then, unless the user set a level.
void quiet_ffmpeg_logs() {
    static std::once_flag once;
    std::call_once(once, [] { ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0); });
}

void open_video_file(sfw_capture *cap) {
    quiet_ffmpeg_logs();
    cap->cap.release();
    cap->cap.open(cap->name, cv::CAP_FFMPEG);
}

// Copies a decoded frame into the caller's buffer as tightly packed RGB.
void to_rgb(const cv::Mat &frame, uint8_t *rgb) {
    cv::Mat out(frame.rows, frame.cols, CV_8UC3, rgb);
    switch (frame.channels()) {
    case 1: cv::cvtColor(frame, out, cv::COLOR_GRAY2RGB); break;
    case 4: cv::cvtColor(frame, out, cv::COLOR_BGRA2RGB); break;
    default: cv::cvtColor(frame, out, cv::COLOR_BGR2RGB); break;
    }
    CV_Assert(out.data == rgb);  // cvtColor must not have reallocated
}

} // namespace

extern "C" {

sfw_capture *sfw_capture_open_device(int index, int width, int height, char *err, int errlen) {
    return sfw::guarded<sfw_capture *>(err, errlen, "camera", nullptr, [&]() -> sfw_capture * {
        if (index < 0) throw Failure(format("camera index %d: must be >= 0", index));
        const std::string node = format("/dev/video%d", index);
        struct stat st;
        if (::stat(node.c_str(), &st) != 0)
            throw Failure(format("camera %s not found (%s)", node.c_str(), video_device_list().c_str()));
        if (!S_ISCHR(st.st_mode)) throw Failure(format("camera %s is not a device node", node.c_str()));
        if (::access(node.c_str(), R_OK | W_OK) != 0)
            throw Failure(format("camera %s: %s (is the user in group 'video'?)", node.c_str(), std::strerror(errno)));
        if (width <= 0 || height <= 0) width = 640, height = 480;

        auto cap = std::make_unique<sfw_capture>();
        cap->kind = sfw_capture::Device;
        cap->name = node;
        if (!cap->cap.open(index, cv::CAP_V4L2))
            throw Failure(format("camera %s: V4L2 could not open it (busy, or not a capture device?)", node.c_str()));
        cap->cap.set(cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'));
        cap->cap.set(cv::CAP_PROP_FRAME_WIDTH, width);
        cap->cap.set(cv::CAP_PROP_FRAME_HEIGHT, height);
        cap->cap.set(cv::CAP_PROP_BUFFERSIZE, 1);
        cv::Mat frame;
        if (!cap->cap.read(frame) || frame.empty())
            throw Failure(format("camera %s opened but delivered no frame (in use by another program, or a "
                                 "metadata-only node?)", node.c_str()));
        cap->pending = frame;
        cap->width = frame.cols;
        cap->height = frame.rows;
        const double fps = cap->cap.get(cv::CAP_PROP_FPS);
        cap->fps = std::isfinite(fps) && fps > 0 ? fps : 0;
        cap->frame_count = -1;
        return cap.release();
    });
}

sfw_capture *sfw_capture_open_file(const char *path, char *err, int errlen) {
    return sfw::guarded<sfw_capture *>(err, errlen, path ? path : "(null)", nullptr, [&]() -> sfw_capture * {
        if (path == nullptr || *path == '\0') throw Failure("video file: empty path");
        struct stat st;
        if (::stat(path, &st) != 0) throw Failure(format("%s: %s", path, std::strerror(errno)));
        if (!S_ISREG(st.st_mode)) throw Failure(format("%s: not a regular file", path));
        if (::access(path, R_OK) != 0) throw Failure(format("%s: %s", path, std::strerror(errno)));

        auto cap = std::make_unique<sfw_capture>();
        cap->name = path;
        bool ok = false;
        if (!has_image_extension(path)) {
            cap->kind = sfw_capture::Video;
            open_video_file(cap.get());
            ok = prime_video(cap.get());
            if (ok) {
                const double fps = cap->cap.get(cv::CAP_PROP_FPS);
                const double count = cap->cap.get(cv::CAP_PROP_FRAME_COUNT);
                cap->fps = std::isfinite(fps) && fps > 0 ? fps : 0;
                cap->frame_count = std::isfinite(count) && count > 0 ? static_cast<int>(count + 0.5) : 0;
                cap->width = cap->pending.cols;
                cap->height = cap->pending.rows;
            } else {
                cap->cap.release();
            }
        }
        if (!ok) {
            cap->kind = sfw_capture::Still;
            cap->still = cv::imread(path, cv::IMREAD_COLOR);
            if (cap->still.empty())
                throw Failure(format("%s: not a readable video or image (%s)", path,
                                     has_image_extension(path) ? "image decoder failed"
                                                               : "FFmpeg could not decode it, nor could the image decoders"));
            cap->width = cap->still.cols;
            cap->height = cap->still.rows;
            cap->fps = 0;
            cap->frame_count = 1;
        }
        return cap.release();
    });
}

sfw_capture *sfw_capture_open_url(const char *url, int open_timeout_ms, int read_timeout_ms, char *err, int errlen) {
    return sfw::guarded<sfw_capture *>(err, errlen, url ? url : "(null)", nullptr, [&]() -> sfw_capture * {
        if (url == nullptr || *url == '\0') throw Failure("stream: empty URL");
        if (std::strstr(url, "://") == nullptr) throw Failure(format("%s: not a URL (scheme://host/…)", url));
        if (open_timeout_ms < 100 || read_timeout_ms < 100)
            throw Failure(format("%s: timeouts must be at least 100 ms (open %d, read %d)", url, open_timeout_ms, read_timeout_ms));
        quiet_ffmpeg_logs();
        auto cap = std::make_unique<sfw_capture>();
        cap->kind = sfw_capture::Stream;
        cap->name = url;
        const std::vector<int> params = {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, open_timeout_ms, cv::CAP_PROP_READ_TIMEOUT_MSEC, read_timeout_ms};
        if (!cap->cap.open(cap->name, cv::CAP_FFMPEG, params) || !cap->cap.isOpened())
            throw Failure(format("%s: cannot open the stream (no answer within %.1f s, or not a video stream FFmpeg reads)", url,
                                 open_timeout_ms / 1000.0));
        if (!prime_video(cap.get()))
            throw Failure(format("%s: the stream opened but sent no frame within %.1f s", url, read_timeout_ms / 1000.0));
        const double fps = cap->cap.get(cv::CAP_PROP_FPS);
        cap->fps = std::isfinite(fps) && fps > 0 && fps < 1000 ? fps : 0;
        cap->frame_count = -1;
        cap->width = cap->pending.cols;
        cap->height = cap->pending.rows;
        return cap.release();
    });
}

double sfw_capture_fps(const sfw_capture *cap) { return cap ? cap->fps : 0; }
int sfw_capture_frame_count(const sfw_capture *cap) { return cap ? cap->frame_count : 0; }
int sfw_capture_width(const sfw_capture *cap) { return cap ? cap->width : 0; }
int sfw_capture_height(const sfw_capture *cap) { return cap ? cap->height : 0; }

int sfw_capture_read(sfw_capture *cap, uint8_t *rgb, int capacity_bytes, int *width, int *height,
                     char *err, int errlen) {
    if (cap == nullptr) {
        sfw::set_error(err, errlen, "sfw_capture_read: NULL capture");
        return -1;
    }
    return sfw::guarded<int>(err, errlen, cap->name.c_str(), -1, [&]() -> int {
        cv::Mat frame;
        if (cap->kind == sfw_capture::Still) {
            if (cap->still_done) return 0;
            frame = cap->still;
        } else if (!cap->pending.empty()) {
            frame = cap->pending;
        } else if (cap->cap.read(cap->decoded) && !cap->decoded.empty()) {
            frame = cap->decoded;
            cap->frame_time_ms = cap->kind == sfw_capture::Device ? cap->cap.get(cv::CAP_PROP_POS_MSEC) : -1;
        } else {
            if (cap->kind == sfw_capture::Video) return 0;
            if (cap->kind == sfw_capture::Stream)
                throw Failure(format("%s: the stream ended or sent nothing in time", cap->name.c_str()));
            struct stat st;
            if (::stat(cap->name.c_str(), &st) != 0)
                throw Failure(format("camera %s disappeared (unplugged?)", cap->name.c_str()));
            throw Failure(format("camera %s stopped delivering frames (unplugged or taken by another program?)",
                                 cap->name.c_str()));
        }
        if (width) *width = frame.cols;
        if (height) *height = frame.rows;
        const long long need = 3LL * frame.cols * frame.rows;
        if (rgb == nullptr || capacity_bytes < need) {
            if (cap->kind != sfw_capture::Still) cap->pending = frame;  // keep it for the retry
            throw Failure(format("%s: frame buffer too small: %d bytes for a %dx%d RGB frame (%lld needed)",
                                 cap->name.c_str(), rgb ? capacity_bytes : 0, frame.cols, frame.rows, need));
        }
        to_rgb(frame, rgb);
        if (cap->kind == sfw_capture::Still) cap->still_done = true;
        else cap->pending.release();
        return 1;
    });
}

int sfw_capture_rewind(sfw_capture *cap, char *err, int errlen) {
    if (cap == nullptr) {
        sfw::set_error(err, errlen, "sfw_capture_rewind: NULL capture");
        return -1;
    }
    return sfw::guarded<int>(err, errlen, cap->name.c_str(), -1, [&]() -> int {
        switch (cap->kind) {
        case sfw_capture::Device:
            throw Failure(format("camera %s: a live camera cannot be rewound", cap->name.c_str()));
        case sfw_capture::Stream:
            throw Failure(format("%s: a live stream cannot be rewound", cap->name.c_str()));
        case sfw_capture::Still:
            cap->still_done = false;
            return 0;
        case sfw_capture::Video:
            cap->pending.release();
            open_video_file(cap);  // reopening is more reliable than seeking to frame 0
            if (!prime_video(cap))
                throw Failure(format("%s: could not reopen the video to rewind it", cap->name.c_str()));
            return 0;
        }
        return -1;
    });
}

void sfw_capture_close(sfw_capture *cap) {
    try {
        delete cap;
    } catch (...) {
    }
}

} // extern "C"

double sfw_capture_frame_time_ms(const sfw_capture *cap) {
    return cap == nullptr ? -1 : cap->frame_time_ms;
}
