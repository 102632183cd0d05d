// haar_detector.cpp — the OpenCV Haar back end, the fallback when MediaPipe is unavailable: a
// frontal-face cascade, then an eye cascade in the upper half of each face box for the two eye
// centres (has_eyes = 0 unless one eye is found in each half of the box). Faces come out largest
// first; score = number of merged raw detections. Contract: sfw::Backend in internal.hpp.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>

namespace {

using sfw::Failure;
using sfw::format;

void load_cascade(cv::CascadeClassifier &cascade, const char *path, const char *what) {
    if (!sfw::is_regular_file(path))
        throw Failure(format("Haar %s cascade %s not found (install the Debian package opencv-data)", what, path));
    bool loaded = false;
    try {
        loaded = cascade.load(path) && !cascade.empty();
    } catch (const cv::Exception &e) {
        throw Failure(format("Haar %s cascade %s could not be loaded: %s", what, path, e.err.c_str()));
    }
    if (!loaded) throw Failure(format("Haar %s cascade %s could not be loaded (not an OpenCV cascade XML?)", what, path));
}

class HaarBackend final : public sfw::Backend {
public:
    explicit HaarBackend(const sfw_detector_config &cfg) {
        sfw_detector_config defaults;
        sfw_detector_config_init(&defaults);
        load_cascade(face_, cfg.face_cascade ? cfg.face_cascade : defaults.face_cascade, "face");
        load_cascade(eye_, cfg.eye_cascade ? cfg.eye_cascade : defaults.eye_cascade, "eye");
        min_face_px_ = cfg.min_face_px > 0 ? cfg.min_face_px : defaults.min_face_px;
        min_neighbors_ = cfg.min_neighbors > 0 ? cfg.min_neighbors : defaults.min_neighbors;
    }

    void detect(const sfw::Request &req, std::vector<sfw_face> &out) override {
        cv::cvtColor(req.rgb, gray_, cv::COLOR_RGB2GRAY);
        cv::equalizeHist(gray_, gray_);
        const int shorter = std::min(gray_.cols, gray_.rows);
        int min_size = min_face_px_;
        if (req.in_roi) min_size = std::max(min_size, shorter / 5);
        if (min_size > shorter) return;

        // Search faces on a copy shrunk so the smallest wanted face is kFaceSearchMinPx px (the
        // cascade's window is 20 px): measured 64 vs 78 ms (whole 720x528 frame) and 14 vs 20 ms
        // (roi) on one core, with the same face/eye rates and eye-distance jitter.
        const double shrink = std::min(1.0, static_cast<double>(kFaceSearchMinPx) / min_size);
        const cv::Mat *search = &gray_;
        if (shrink < 1.0) {
            cv::resize(gray_, small_, cv::Size(), shrink, shrink, cv::INTER_AREA);
            search = &small_;
        }
        const int search_min = std::max(1, static_cast<int>(min_size * shrink));
        std::vector<cv::Rect> boxes;
        std::vector<int> merged;
        face_.detectMultiScale(*search, boxes, merged, 1.1, min_neighbors_, 0, cv::Size(search_min, search_min));
        const size_t first = out.size();
        for (size_t i = 0; i < boxes.size(); i++) {
            const cv::Rect b(cvRound(boxes[i].x / shrink), cvRound(boxes[i].y / shrink), cvRound(boxes[i].width / shrink),
                             cvRound(boxes[i].height / shrink));
            sfw_face f{};
            f.x = static_cast<float>(b.x);
            f.y = static_cast<float>(b.y);
            f.w = static_cast<float>(b.width);
            f.h = static_cast<float>(b.height);
            f.score = i < merged.size() ? static_cast<float>(merged[i]) : 0.0f;
            find_eyes(b, f);
            out.push_back(f);
        }
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                  [](const sfw_face &a, const sfw_face &b) { return a.w * a.h > b.w * b.h; });
    }

    const char *name() const override { return "haar"; }

private:
    // Eye cascade in the upper half of the face box, upscaled so the face is at least
    // kEyeSearchFaceWidth px wide (the eye cascade's window is 20 x 20 px, so eyes of faces below
    // ~150 px are otherwise too small); the best-supported hit (most merged raw detections, then
    // largest) in each half of the box gives that eye's centre.
    void find_eyes(const cv::Rect &face, sfw_face &f) {
        const cv::Rect upper = cv::Rect(face.x, face.y, face.width, face.height / 2) & cv::Rect(0, 0, gray_.cols, gray_.rows);
        if (upper.width < 8 || upper.height < 8) return;
        const double zoom = std::max(1.0, static_cast<double>(kEyeSearchFaceWidth) / face.width);
        if (zoom > 1.0) cv::resize(gray_(upper), eye_area_, cv::Size(), zoom, zoom, cv::INTER_LINEAR);
        else eye_area_ = gray_(upper);
        const int face_w = static_cast<int>(face.width * zoom);
        const int min_eye = std::max(8, face_w / 10), max_eye = std::max(min_eye + 1, face_w / 3);
        std::vector<cv::Rect> eyes;
        std::vector<int> merged;
        eye_.detectMultiScale(eye_area_, eyes, merged, 1.1, 2, 0, cv::Size(min_eye, min_eye), cv::Size(max_eye, max_eye));
        int best[2] = {-1, -1};  // [0] image-left half = the person's right eye
        auto better = [&](size_t a, int b) {
            if (b < 0) return true;
            if (merged[a] != merged[static_cast<size_t>(b)]) return merged[a] > merged[static_cast<size_t>(b)];
            return eyes[a].area() > eyes[static_cast<size_t>(b)].area();
        };
        for (size_t i = 0; i < eyes.size() && i < merged.size(); i++) {
            const double cx = eyes[i].x + eyes[i].width * 0.5;
            const int side = cx < face_w * 0.5 ? 0 : 1;
            if (better(i, best[side])) best[side] = static_cast<int>(i);
        }
        if (best[0] < 0 || best[1] < 0) return;
        float pts[2][2];
        for (int s = 0; s < 2; s++) {
            const cv::Rect &e = eyes[static_cast<size_t>(best[s])];
            // pixel centres: zoomed coordinate u maps back to (u + 0.5) / zoom - 0.5
            pts[s][0] = static_cast<float>(upper.x + (e.x + e.width * 0.5) / zoom - 0.5);
            pts[s][1] = static_cast<float>(upper.y + (e.y + e.height * 0.5) / zoom - 0.5);
        }
        f.has_eyes = 1;
        f.right_eye_x = pts[0][0];
        f.right_eye_y = pts[0][1];
        f.left_eye_x = pts[1][0];
        f.left_eye_y = pts[1][1];
        f.keypoint_count = 2;
        for (int s = 0; s < 2; s++) {
            f.keypoints[s][0] = pts[s][0];
            f.keypoints[s][1] = pts[s][1];
        }
    }

    cv::CascadeClassifier face_, eye_;
    static constexpr int kFaceSearchMinPx = 32;
    static constexpr int kEyeSearchFaceWidth = 120;
    cv::Mat gray_, small_, eye_area_;
    int min_face_px_ = 48, min_neighbors_ = 3;
};

} // namespace

std::unique_ptr<sfw::Backend> sfw::make_haar_backend(const sfw_detector_config &cfg) {
    return std::make_unique<HaarBackend>(cfg);
}
