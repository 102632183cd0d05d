// mediapipe_api.cpp — loading libmediapipe.so and the small helpers both MediaPipe back ends use.
#include "mediapipe_api.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <map>
#include <mutex>
#include <type_traits>

namespace sfw::mp {

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
    auto resolve = [&](auto &fn, const char *symbol, bool required) {
        void *p = dlsym(handle, symbol);
        if (p == nullptr && required) {
            dlclose(handle);
            throw Failure(format("MediaPipe library %s has no symbol %s (not the mediapipe 1.2.2 C API?)",
                                 path.c_str(), symbol));
        }
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    resolve(api.FaceDetectorCreate, "MpFaceDetectorCreate", true);
    resolve(api.FaceDetectorDetectImage, "MpFaceDetectorDetectImage", true);
    resolve(api.FaceDetectorCloseResult, "MpFaceDetectorCloseResult", true);
    resolve(api.FaceDetectorClose, "MpFaceDetectorClose", true);
    resolve(api.ImageCreateFromUint8Data, "MpImageCreateFromUint8Data", true);
    resolve(api.ImageFree, "MpImageFree", true);
    resolve(api.ErrorFree, "MpErrorFree", true);
    resolve(api.FaceLandmarkerCreate, "MpFaceLandmarkerCreate", false);
    resolve(api.FaceLandmarkerDetectForVideo, "MpFaceLandmarkerDetectForVideo", false);
    resolve(api.FaceLandmarkerCloseResult, "MpFaceLandmarkerCloseResult", false);
    resolve(api.FaceLandmarkerClose, "MpFaceLandmarkerClose", false);
    return loaded.emplace(path, api).first->second;
}

std::string take_error(const Api &api, char *error) {
    std::string s = error ? error : "no message";
    if (error) api.ErrorFree(error);
    return s;
}

void *wrap_image(const Api &api, const cv::Mat &rgb) {
    CV_Assert(rgb.type() == CV_8UC3 && rgb.isContinuous());
    const long long bytes = 3LL * rgb.cols * rgb.rows;
    if (bytes > INT_MAX) throw Failure(format("MediaPipe: image %dx%d too large", rgb.cols, rgb.rows));
    void *image = nullptr;
    char *error = nullptr;
    if (api.ImageCreateFromUint8Data(kImageFormatSRGB, rgb.cols, rgb.rows, rgb.data, static_cast<int>(bytes), &image,
                                     &error) != 0 || image == nullptr)
        throw Failure("MediaPipe could not wrap a " + std::to_string(rgb.cols) + "x" + std::to_string(rgb.rows) +
                      " image: " + take_error(api, error));
    if (error) api.ErrorFree(error);
    return image;
}

namespace {
std::mutex &silencer_mutex() { static std::mutex m; return m; }
int &silencer_depth() { static int d = 0; return d; }
int &silencer_saved() { static int fd = -1; return fd; }
} // namespace

StderrSilencer::StderrSilencer() {
    std::lock_guard<std::mutex> lock(silencer_mutex());
    if (silencer_depth()++ > 0) return;
    std::fflush(stderr);
    silencer_saved() = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (silencer_saved() >= 0 && null >= 0) ::dup2(null, 2);
    if (null >= 0) ::close(null);
}

StderrSilencer::~StderrSilencer() {
    std::lock_guard<std::mutex> lock(silencer_mutex());
    if (--silencer_depth() > 0 || silencer_saved() < 0) return;
    std::fflush(stderr);
    ::dup2(silencer_saved(), 2);
    ::close(silencer_saved());
    silencer_saved() = -1;
}

} // namespace sfw::mp
