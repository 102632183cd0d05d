// detector.cpp — sfw_detector_*: validates arguments, crops the optional roi (clamped to the
// image), hands the crop to the chosen back end (MediaPipe or Haar) and maps the faces back to
// full-image pixels. Contract: see SplatFrameWebcam.h; a handle is used from one thread at a time.
#include "internal.hpp"

#include <cmath>
#include <cstring>

struct sfw_detector {
    std::unique_ptr<sfw::Backend> backend;
    std::vector<sfw_face> found;  // reused between calls
};

using sfw::Failure;
using sfw::format;

extern "C" {

void sfw_detector_config_init(sfw_detector_config *cfg) {
    if (cfg == nullptr) return;
    std::memset(cfg, 0, sizeof *cfg);
    cfg->backend = SFW_BACKEND_MEDIAPIPE;
    cfg->min_confidence = 0.5f;
    cfg->face_cascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml";
    cfg->eye_cascade = "/usr/share/opencv4/haarcascades/haarcascade_eye.xml";
    cfg->min_face_px = 48;
    cfg->min_neighbors = 3;
}

sfw_detector *sfw_detector_create(const sfw_detector_config *cfg, char *err, int errlen) {
    return sfw::guarded<sfw_detector *>(err, errlen, "face detector", nullptr, [&]() -> sfw_detector * {
        if (cfg == nullptr) throw Failure("face detector: NULL configuration");
        auto det = std::make_unique<sfw_detector>();
        switch (cfg->backend) {
        case SFW_BACKEND_MEDIAPIPE: det->backend = sfw::make_mediapipe_backend(*cfg); break;
        case SFW_BACKEND_HAAR: det->backend = sfw::make_haar_backend(*cfg); break;
        default: throw Failure(format("face detector: unknown back end %d", static_cast<int>(cfg->backend)));
        }
        return det.release();
    });
}

int sfw_detector_detect(sfw_detector *det, const uint8_t *rgb, int width, int height, int stride,
                        int64_t timestamp_ms, const sfw_rect *roi, int full_range,
                        sfw_face *faces, int max_faces, char *err, int errlen) {
    return sfw::guarded<int>(err, errlen, "face detection", -1, [&]() -> int {
        if (det == nullptr) throw Failure("face detection: NULL detector");
        const cv::Mat full = sfw::wrap_rgb(rgb, width, height, stride, "face detection");
        if (max_faces < 0 || (max_faces > 0 && faces == nullptr))
            throw Failure(format("face detection: bad output array (faces %p, max_faces %d)", static_cast<void *>(faces), max_faces));

        cv::Rect area(0, 0, width, height);
        if (roi != nullptr) {
            if (!std::isfinite(roi->x) || !std::isfinite(roi->y) || !std::isfinite(roi->w) || !std::isfinite(roi->h) ||
                roi->w <= 0 || roi->h <= 0)
                throw Failure(format("face detection: bad roi (%g, %g, %g x %g)", roi->x, roi->y, roi->w, roi->h));
            const double x0 = std::max(0.0, std::floor(static_cast<double>(roi->x)));
            const double y0 = std::max(0.0, std::floor(static_cast<double>(roi->y)));
            const double x1 = std::min(static_cast<double>(width), std::ceil(static_cast<double>(roi->x) + roi->w));
            const double y1 = std::min(static_cast<double>(height), std::ceil(static_cast<double>(roi->y) + roi->h));
            if (x1 - x0 < 1 || y1 - y0 < 1) return 0;
            area = cv::Rect(static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0), static_cast<int>(y1 - y0));
        }
        sfw::Request req;
        req.rgb = full(area);
        if (!req.rgb.isContinuous()) req.rgb = req.rgb.clone();
        req.full_range = full_range != 0;
        req.in_roi = roi != nullptr;
        req.timestamp_ms = timestamp_ms;

        det->found.clear();
        det->backend->detect(req, det->found);
        const float dx = static_cast<float>(area.x), dy = static_cast<float>(area.y);
        const int n = std::min(max_faces, static_cast<int>(det->found.size()));
        for (int i = 0; i < n; i++) {
            sfw_face f = det->found[static_cast<size_t>(i)];
            f.x += dx;
            f.y += dy;
            if (f.has_eyes) {
                f.right_eye_x += dx;
                f.right_eye_y += dy;
                f.left_eye_x += dx;
                f.left_eye_y += dy;
            }
            for (int k = 0; k < f.keypoint_count; k++) {
                f.keypoints[k][0] += dx;
                f.keypoints[k][1] += dy;
            }
            faces[i] = f;
        }
        return n;
    });
}

const char *sfw_detector_backend_name(const sfw_detector *det) {
    return det && det->backend ? det->backend->name() : "none";
}

void sfw_detector_destroy(sfw_detector *det) {
    try {
        delete det;
    } catch (...) {
    }
}

} // extern "C"
