// internal.hpp — CWebcam internals shared by the .cpp files: error-message helpers, the
// exception guard wrapped around every C entry point, and the Backend interface that
// detector.cpp dispatches to (mediapipe_detector.cpp, haar_detector.cpp). Not part of the API.
#pragma once

#include "SplatFrameWebcam.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace sfw {

// Writes a one-line message (newlines and tabs become spaces) into err[0..errlen-1], NUL-terminated.
// No-op when err is NULL or errlen <= 0.
void set_error(char *err, int errlen, const std::string &message);

// printf-style std::string.
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Thrown inside the library for expected failures; `what()` is the whole user-facing message.
struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs body() and returns its result; any exception becomes "<context>: <message>" in err and
// the call returns `fallback`. Nothing escapes: this is the C boundary.
template <class R, class F>
R guarded(char *err, int errlen, const char *context, R fallback, F &&body) noexcept {
    try {
        return body();
    } catch (const Failure &e) {
        set_error(err, errlen, e.what());
    } catch (const cv::Exception &e) {
        set_error(err, errlen, std::string(context) + ": OpenCV error: " + e.err +
                                   (e.func.empty() ? "" : " (in " + e.func + ")"));
    } catch (const std::bad_alloc &) {
        set_error(err, errlen, std::string(context) + ": out of memory");
    } catch (const std::exception &e) {
        set_error(err, errlen, std::string(context) + ": " + e.what());
    } catch (...) {
        set_error(err, errlen, std::string(context) + ": unknown C++ exception");
    }
    return fallback;
}

// Caller memory as an RGB888 Mat (no copy), the geometry checked: a NULL buffer, a size ≤ 0 or a
// row stride below width·3 (0 means width·3) throws a Failure naming `what`. image.cpp.
cv::Mat wrap_rgb(const uint8_t *data, int width, int height, int stride, const char *what);

// True when `path` names an existing regular file (used for clear "not found" messages).
bool is_regular_file(const char *path);

// One detection request as a back end sees it: a contiguous CV_8UC3 RGB image (the whole frame
// or the roi crop); `in_roi` tells the back end it is looking at a crop around a known face.
struct Request {
    cv::Mat rgb;
    bool full_range;
    bool in_roi;
    int64_t timestamp_ms;
};

// A face-detector back end. detect() appends faces in the coordinates of req.rgb, best first,
// or throws Failure/cv::Exception. Used from one thread at a time.
class Backend {
public:
    virtual ~Backend() = default;
    virtual void detect(const Request &req, std::vector<sfw_face> &out) = 0;
    virtual const char *name() const = 0;
};

std::unique_ptr<Backend> make_mediapipe_backend(const sfw_detector_config &cfg);
std::unique_ptr<Backend> make_haar_backend(const sfw_detector_config &cfg);

} // namespace sfw
