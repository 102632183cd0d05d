// image.cpp — sfw_image_read_rgb / sfw_image_write_rgb / sfw_warp_rgb: small RGB888 helpers the
// tests use to load a still face, write debug images and synthesise motion (exact affine
// scale + translate with replicated borders). Contract: see SplatFrameWebcam.h.
#include "internal.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>

using sfw::Failure;
using sfw::format;

cv::Mat sfw::wrap_rgb(const uint8_t *data, int width, int height, int stride, const char *what) {
    if (data == nullptr) throw Failure(format("%s: NULL image buffer", what));
    if (width <= 0 || height <= 0) throw Failure(format("%s: bad image size %dx%d", what, width, height));
    if (stride == 0) stride = width * 3;
    if (stride < width * 3) throw Failure(format("%s: row stride %d < width * 3 = %d", what, stride, width * 3));
    return cv::Mat(height, width, CV_8UC3, const_cast<uint8_t *>(data), static_cast<size_t>(stride));
}

extern "C" {

int sfw_image_read_rgb(const char *path, uint8_t *rgb, int capacity_bytes, int *width, int *height,
                       char *err, int errlen) {
    return sfw::guarded<int>(err, errlen, path ? path : "(null)", -1, [&]() -> int {
        if (path == nullptr || *path == '\0') throw Failure("image: empty path");
        if (!sfw::is_regular_file(path)) throw Failure(format("%s: no such file", path));
        cv::Mat bgr = cv::imread(path, cv::IMREAD_COLOR);
        if (bgr.empty()) throw Failure(format("%s: not a readable image", path));
        if (width) *width = bgr.cols;
        if (height) *height = bgr.rows;
        if (rgb == nullptr) return 1;
        const long long need = 3LL * bgr.cols * bgr.rows;
        if (capacity_bytes < need)
            throw Failure(format("%s: buffer too small: %d bytes for %dx%d RGB (%lld needed)", path,
                                 capacity_bytes, bgr.cols, bgr.rows, need));
        cv::Mat out(bgr.rows, bgr.cols, CV_8UC3, rgb);
        cv::cvtColor(bgr, out, cv::COLOR_BGR2RGB);
        return 1;
    });
}

int sfw_image_write_rgb(const char *path, const uint8_t *rgb, int width, int height, int stride,
                        char *err, int errlen) {
    return sfw::guarded<int>(err, errlen, path ? path : "(null)", -1, [&]() -> int {
        if (path == nullptr || *path == '\0') throw Failure("image: empty path");
        cv::Mat src = sfw::wrap_rgb(rgb, width, height, stride, path), bgr;
        cv::cvtColor(src, bgr, cv::COLOR_RGB2BGR);
        if (!cv::imwrite(path, bgr)) throw Failure(format("%s: could not write (unknown extension or unwritable)", path));
        return 0;
    });
}

int sfw_warp_rgb(const uint8_t *src, int src_width, int src_height, int src_stride,
                 uint8_t *dst, int dst_width, int dst_height, int dst_stride,
                 float scale, float tx, float ty, char *err, int errlen) {
    return sfw::guarded<int>(err, errlen, "sfw_warp_rgb", -1, [&]() -> int {
        if (!(scale > 0) || !std::isfinite(scale) || !std::isfinite(tx) || !std::isfinite(ty))
            throw Failure(format("sfw_warp_rgb: bad transform scale %g, translation (%g, %g)", scale, tx, ty));
        cv::Mat s = sfw::wrap_rgb(src, src_width, src_height, src_stride, "sfw_warp_rgb source");
        cv::Mat d = sfw::wrap_rgb(dst, dst_width, dst_height, dst_stride, "sfw_warp_rgb destination");
        const cv::Matx23d m(scale, 0, tx, 0, scale, ty);
        cv::warpAffine(s, d, m, d.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        CV_Assert(d.data == dst);
        return 0;
    });
}

} // extern "C"
