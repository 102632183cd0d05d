// mediapipe_detector.cpp — the MediaPipe back end: BlazeFace (short range, optionally full-range
// sparse) through the C API of libmediapipe.so from PyPI mediapipe==1.2.2, loaded with
// dlopen(RTLD_NOW | RTLD_LOCAL) so a missing or unloadable library is an ordinary error. Runs
// the graphs in IMAGE mode (measured: same speed and bit-identical results as VIDEO mode, and
// no strictly-increasing-timestamp rule). The ABI below is transcribed from the wheel's ctypes
// files (no header ships); keep it in sync.
#include "internal.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <mutex>
#include <type_traits>

namespace {

using sfw::Failure;
using sfw::format;

// ---- MediaPipe C ABI (mediapipe 1.2.2: tasks/python/core/base_options_c.py,
// vision/face_detector.py, components/containers/{detections,rect,keypoint,category}_c.py) ----
struct MpBaseOptions {
    const char *model_asset_buffer;
    unsigned int model_asset_buffer_count;
    const char *model_asset_path;
    int file_descriptor;
    int delegate;  // 1 = CPU
    int host_environment;
    int host_system;
    const char *host_version;
    const char *ca_bundle_path;
    const char *app_id;
    const char *app_version;
};
struct MpFaceDetectorOptions {
    MpBaseOptions base_options;
    int running_mode;  // 1 image, 2 video, 3 live stream
    float min_detection_confidence;
    float min_suppression_threshold;
    void *result_callback;  // live stream only
};
struct MpCategory {
    int index;
    float score;
    const char *category_name;
    const char *display_name;
};
struct MpRect {
    int left, top, bottom, right;  // sic: bottom before right
};
struct MpNormalizedKeypoint {
    float x, y;  // 0–1 of the input image
    const char *label;
    float score;
};
struct MpDetection {
    MpCategory *categories;
    uint32_t categories_count;
    MpRect bounding_box;
    MpNormalizedKeypoint *keypoints;
    uint32_t keypoints_count;
};
struct MpDetectionResult {
    MpDetection *detections;
    uint32_t detections_count;
};
enum { kMpImageFormatSRGB = 1, kMpRunningModeImage = 1, kMpDelegateCPU = 1 };

struct Api {
    int (*FaceDetectorCreate)(const MpFaceDetectorOptions *, void **, char **);
    int (*FaceDetectorDetectImage)(void *, void *, const void *, MpDetectionResult *, char **);
    void (*FaceDetectorCloseResult)(MpDetectionResult *);
    int (*FaceDetectorClose)(void *, char **);
    int (*ImageCreateFromUint8Data)(int, int, int, const uint8_t *, int, void **, char **);
    void (*ImageFree)(void *);
    void (*ErrorFree)(char *);
};

// Loads `path` once per process and resolves the API; the library is never unloaded (it starts
// threads and registers static state, so dlclose is not safe).
const Api &load_api(const std::string &path) {
    static std::mutex mutex;
    static std::map<std::string, Api> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(path);
    if (it != loaded.end()) return it->second;

    if (!sfw::is_regular_file(path.c_str()))
        throw Failure(format("MediaPipe library %s not found (run Scripts/fetch-webcam-models.sh)", path.c_str()));
    dlerror();
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char *why = dlerror();
        std::string reason = why ? why : "unknown dlopen error";
        if (reason.find("libEGL") != std::string::npos || reason.find("libGLES") != std::string::npos)
            reason += " (install the Debian packages libegl1 libgles2)";
        throw Failure(format("MediaPipe library %s could not be loaded: %s", path.c_str(), reason.c_str()));
    }
    Api api{};
    auto resolve = [&](auto &fn, const char *symbol) {
        void *p = dlsym(handle, symbol);
        if (p == nullptr) {
            dlclose(handle);
            throw Failure(format("MediaPipe library %s has no symbol %s (not the mediapipe 1.2.2 C API?)",
                                 path.c_str(), symbol));
        }
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    resolve(api.FaceDetectorCreate, "MpFaceDetectorCreate");
    resolve(api.FaceDetectorDetectImage, "MpFaceDetectorDetectImage");
    resolve(api.FaceDetectorCloseResult, "MpFaceDetectorCloseResult");
    resolve(api.FaceDetectorClose, "MpFaceDetectorClose");
    resolve(api.ImageCreateFromUint8Data, "MpImageCreateFromUint8Data");
    resolve(api.ImageFree, "MpImageFree");
    resolve(api.ErrorFree, "MpErrorFree");
    return loaded.emplace(path, api).first->second;
}

// Points fd 2 at /dev/null for its lifetime (MediaPipe logs ~10 INFO lines per graph creation
// through its own logger; no environment variable silences them). Process-wide and nesting:
// fd 2 is shared by every thread, so the first silencer saves and redirects it and the last one
// restores it (two detectors created at once on two threads would otherwise each "restore" the
// other's /dev/null and leave stderr silenced for good).
class StderrSilencer {
public:
    StderrSilencer() {
        std::lock_guard<std::mutex> lock(mutex());
        if (depth()++ > 0) return;
        std::fflush(stderr);
        saved() = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
        const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (saved() >= 0 && null >= 0) ::dup2(null, 2);
        if (null >= 0) ::close(null);
    }
    ~StderrSilencer() {
        std::lock_guard<std::mutex> lock(mutex());
        if (--depth() > 0 || saved() < 0) return;
        std::fflush(stderr);
        ::dup2(saved(), 2);
        ::close(saved());
        saved() = -1;
    }
    StderrSilencer(const StderrSilencer &) = delete;
    StderrSilencer &operator=(const StderrSilencer &) = delete;

private:
    static std::mutex &mutex() { static std::mutex m; return m; }
    static int &depth() { static int d = 0; return d; }
    static int &saved() { static int fd = -1; return fd; }
};

// Takes ownership of a MediaPipe error string and returns it as std::string.
std::string take_error(const Api &api, char *error) {
    std::string s = error ? error : "no message";
    if (error) api.ErrorFree(error);
    return s;
}

// One BlazeFace graph in IMAGE mode (VIDEO mode would need strictly increasing timestamps per
// graph, i.e. one graph per roi/full-frame stream, for no gain).
class Graph {
public:
    Graph(const Api &api, const std::string &model, float min_confidence) : api_(api) {
        if (!sfw::is_regular_file(model.c_str()))
            throw Failure(format("MediaPipe model %s not found (run Scripts/fetch-webcam-models.sh)", model.c_str()));
        MpFaceDetectorOptions options{};
        options.base_options.model_asset_path = model.c_str();
        options.base_options.delegate = kMpDelegateCPU;
        options.running_mode = kMpRunningModeImage;
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
        CV_Assert(rgb.type() == CV_8UC3 && rgb.isContinuous());
        const long long bytes = 3LL * rgb.cols * rgb.rows;
        if (bytes > INT_MAX) throw Failure(format("MediaPipe: image %dx%d too large", rgb.cols, rgb.rows));
        void *image = nullptr;
        char *error = nullptr;
        if (api_.ImageCreateFromUint8Data(kMpImageFormatSRGB, rgb.cols, rgb.rows, rgb.data, static_cast<int>(bytes),
                                          &image, &error) != 0 || image == nullptr)
            throw Failure("MediaPipe could not wrap a " + std::to_string(rgb.cols) + "x" + std::to_string(rgb.rows) +
                          " image: " + take_error(api_, error));
        MpDetectionResult result{};
        const int status = api_.FaceDetectorDetectImage(handle_, image, nullptr, &result, &error);
        api_.ImageFree(image);
        if (status != 0) throw Failure("MediaPipe face detection failed: " + take_error(api_, error));
        if (error) api_.ErrorFree(error);

        const float w = static_cast<float>(rgb.cols), h = static_cast<float>(rgb.rows);
        const size_t first = out.size();
        for (uint32_t i = 0; i < result.detections_count; i++) {
            const MpDetection &d = result.detections[i];
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
