// mediapipe_detector.cpp — the MediaPipe back end: BlazeFace (short range, optionally full-range
// sparse) through the C API of libmediapipe.so from PyPI mediapipe==1.2.2 (mediapipe_api.hpp),
// loaded with dlopen so a missing or unloadable library is an ordinary error. Runs the graphs in
// IMAGE mode (measured: same speed and bit-identical results as VIDEO mode, and no
// strictly-increasing-timestamp rule).
#include "mediapipe_api.hpp"

#include <algorithm>

namespace {

using sfw::Failure;
using sfw::format;
using namespace sfw::mp;

// One BlazeFace graph in IMAGE mode (VIDEO mode would need strictly increasing timestamps per
// graph, i.e. one graph per roi/full-frame stream, for no gain).
class Graph {
public:
    Graph(const Api &api, const std::string &model, float min_confidence) : api_(api) {
        if (!sfw::is_regular_file(model.c_str()))
            throw Failure(format("MediaPipe model %s not found (run Scripts/fetch-webcam-models.sh)", model.c_str()));
        FaceDetectorOptions options{};
        options.base_options.model_asset_path = model.c_str();
        options.base_options.delegate = kDelegateCPU;
        options.running_mode = kRunningModeImage;
        options.min_detection_confidence = min_confidence;
        options.min_suppression_threshold = 0.3f;  // MediaPipe's default
        char *error = nullptr;
        int status;
        {
            StderrSilencer quiet;
            status = api_.FaceDetectorCreate(&options, &handle_, &error);
        }
        if (status != 0 || handle_ == nullptr)
            throw Failure(format("MediaPipe could not create a face detector from %s: %s (status %d)",
                                 model.c_str(), take_error(api_, error).c_str(), status));
        if (error) api_.ErrorFree(error);
        // Warm up on a blank frame, quietly: the first inference logs a LiteRT alignment warning
        // and absl's "Logging before InitGoogle()" notice.
        const cv::Mat blank(64, 64, CV_8UC3, cv::Scalar::all(0));
        std::vector<sfw_face> ignored;
        try {
            StderrSilencer quiet;
            detect(blank, ignored);
        } catch (...) {
            close();
            throw;
        }
    }
    ~Graph() { close(); }
    Graph(const Graph &) = delete;
    Graph &operator=(const Graph &) = delete;

    // Runs the graph on a contiguous RGB image; appends faces in its pixel coordinates.
    void detect(const cv::Mat &rgb, std::vector<sfw_face> &out) {
        void *image = wrap_image(api_, rgb);
        char *error = nullptr;
        DetectionResult result{};
        const int status = api_.FaceDetectorDetectImage(handle_, image, nullptr, &result, &error);
        api_.ImageFree(image);
        if (status != 0) throw Failure("MediaPipe face detection failed: " + take_error(api_, error));
        if (error) api_.ErrorFree(error);

        const float w = static_cast<float>(rgb.cols), h = static_cast<float>(rgb.rows);
        const size_t first = out.size();
        for (uint32_t i = 0; i < result.detections_count; i++) {
            const Detection &d = result.detections[i];
            sfw_face f{};
            f.x = static_cast<float>(d.bounding_box.left);
            f.y = static_cast<float>(d.bounding_box.top);
            f.w = static_cast<float>(d.bounding_box.right - d.bounding_box.left);
            f.h = static_cast<float>(d.bounding_box.bottom - d.bounding_box.top);
            f.score = d.categories_count > 0 ? d.categories[0].score : 0.0f;
            f.keypoint_count = static_cast<int>(std::min<uint32_t>(d.keypoints_count, 6));
            for (int k = 0; k < f.keypoint_count; k++) {
                // normalised 0–1 spans the image edges; pixel centres are at integers
                f.keypoints[k][0] = d.keypoints[k].x * w - 0.5f;
                f.keypoints[k][1] = d.keypoints[k].y * h - 0.5f;
            }
            if (f.keypoint_count >= 2) {
                f.has_eyes = 1;
                f.right_eye_x = f.keypoints[0][0];
                f.right_eye_y = f.keypoints[0][1];
                f.left_eye_x = f.keypoints[1][0];
                f.left_eye_y = f.keypoints[1][1];
            }
            out.push_back(f);
        }
        api_.FaceDetectorCloseResult(&result);
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                  [](const sfw_face &a, const sfw_face &b) { return a.score > b.score; });
    }

private:
    void close() noexcept {
        if (handle_ == nullptr) return;
        char *error = nullptr;
        StderrSilencer quiet;  // closing logs "DestroyAccelerator" INFO lines
        api_.FaceDetectorClose(handle_, &error);
        if (error) api_.ErrorFree(error);
        handle_ = nullptr;
    }

    const Api &api_;
    void *handle_ = nullptr;
};

class MediaPipeBackend final : public sfw::Backend {
public:
    explicit MediaPipeBackend(const sfw_detector_config &cfg) {
        if (cfg.mediapipe_library == nullptr || *cfg.mediapipe_library == '\0')
            throw Failure("MediaPipe back end: no library path given (run Scripts/fetch-webcam-models.sh)");
        if (cfg.short_range_model == nullptr || *cfg.short_range_model == '\0')
            throw Failure("MediaPipe back end: no short-range model path given");
        for (const char *model : {cfg.short_range_model, cfg.full_range_model})
            if (model != nullptr && *model != '\0' && !sfw::is_regular_file(model))
                throw Failure(format("MediaPipe model %s not found (run Scripts/fetch-webcam-models.sh)", model));
        const Api &api = load_api(cfg.mediapipe_library);
        const float confidence = cfg.min_confidence > 0 ? cfg.min_confidence : 0.5f;
        short_range_ = std::make_unique<Graph>(api, cfg.short_range_model, confidence);
        if (cfg.full_range_model != nullptr && *cfg.full_range_model != '\0')
            full_range_ = std::make_unique<Graph>(api, cfg.full_range_model, confidence);
    }

    void detect(const sfw::Request &req, std::vector<sfw_face> &out) override {
        Graph *graph = req.full_range ? full_range_.get() : short_range_.get();
        if (graph == nullptr) throw Failure("MediaPipe back end: full-range detection asked for, but no full-range model was configured");
        graph->detect(req.rgb, out);
    }

    const char *name() const override { return "mediapipe"; }

private:
    std::unique_ptr<Graph> short_range_, full_range_;
};

} // namespace

std::unique_ptr<sfw::Backend> sfw::make_mediapipe_backend(const sfw_detector_config &cfg) {
    return std::make_unique<MediaPipeBackend>(cfg);
}
