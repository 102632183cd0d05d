// face_landmarker.cpp — sfw_landmarker_*: MediaPipe's Face Landmarker (face_landmarker.task) in
// VIDEO mode through libmediapipe.so's C API (mediapipe_api.hpp). VIDEO mode tracks each face
// from the previous frame's landmarks and runs the face detector only when it loses one, so
// timestamps must increase strictly: a repeated or earlier timestamp is moved to one
// millisecond after the last. Contract: see SplatFrameWebcam.h.
#include "mediapipe_api.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

using sfw::Failure;
using sfw::format;
using namespace sfw::mp;

struct sfw_landmarker {
    const Api *api = nullptr;
    void *handle = nullptr;
    int64_t last_timestamp = INT64_MIN;

    ~sfw_landmarker() {
        if (handle == nullptr) return;
        char *error = nullptr;
        StderrSilencer quiet;  // closing logs INFO lines
        api->FaceLandmarkerClose(handle, &error);
        if (error) api->ErrorFree(error);
    }

    // One VIDEO-mode inference; fills `out` (at most `max_faces`) and returns the count.
    int detect(const cv::Mat &rgb, int64_t timestamp_ms, sfw_face_landmarks *out, int max_faces) {
        if (timestamp_ms <= last_timestamp) timestamp_ms = last_timestamp + 1;
        last_timestamp = timestamp_ms;
        void *image = wrap_image(*api, rgb);
        FaceLandmarkerResult result{};
        char *error = nullptr;
        const int status = api->FaceLandmarkerDetectForVideo(handle, image, nullptr, timestamp_ms, &result, &error);
        api->ImageFree(image);
        if (status != 0) throw Failure("MediaPipe face landmarker failed: " + take_error(*api, error));
        if (error) api->ErrorFree(error);

        const float w = static_cast<float>(rgb.cols), h = static_cast<float>(rgb.rows);
        const int n = std::min(max_faces, static_cast<int>(result.face_landmarks_count));
        for (int i = 0; i < n; i++) {
            sfw_face_landmarks &f = out[i];
            std::memset(&f, 0, sizeof f);
            const NormalizedLandmarks &lm = result.face_landmarks[i];
            f.landmark_count = static_cast<int>(std::min<uint32_t>(lm.landmarks_count, SFW_FACE_LANDMARKS));
            float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
            for (int k = 0; k < f.landmark_count; k++) {
                // normalised 0–1 spans the image edges; pixel centres are at integers. z is in x's scale.
                f.landmarks[k][0] = lm.landmarks[k].x * w - 0.5f;
                f.landmarks[k][1] = lm.landmarks[k].y * h - 0.5f;
                f.landmarks[k][2] = lm.landmarks[k].z * w;
                x0 = std::min(x0, f.landmarks[k][0]); x1 = std::max(x1, f.landmarks[k][0]);
                y0 = std::min(y0, f.landmarks[k][1]); y1 = std::max(y1, f.landmarks[k][1]);
            }
            if (f.landmark_count > 0) { f.x = x0; f.y = y0; f.w = x1 - x0; f.h = y1 - y0; }
            if (static_cast<uint32_t>(i) < result.facial_transformation_matrixes_count) {
                const Matrix &m = result.facial_transformation_matrixes[i];
                if (m.rows == 4 && m.cols == 4 && m.data != nullptr) {
                    f.has_matrix = 1;
                    std::memcpy(f.matrix, m.data, sizeof f.matrix);
                }
            }
        }
        api->FaceLandmarkerCloseResult(&result);
        return n;
    }
};

extern "C" {

sfw_landmarker *sfw_landmarker_create(const char *library, const char *model, int max_faces, float min_confidence,
                                      char *err, int errlen) {
    return sfw::guarded<sfw_landmarker *>(err, errlen, "face landmarker", nullptr, [&]() -> sfw_landmarker * {
        if (library == nullptr || *library == '\0')
            throw Failure("face landmarker: no MediaPipe library path given (run Scripts/fetch-webcam-models.sh)");
        if (model == nullptr || *model == '\0') throw Failure("face landmarker: no model path given");
        if (!sfw::is_regular_file(model))
            throw Failure(format("face landmarker model %s not found (run Scripts/fetch-webcam-models.sh)", model));
        if (max_faces < 1 || max_faces > 8) throw Failure(format("face landmarker: max_faces %d is not 1…8", max_faces));
        const Api &api = load_api(library);
        if (api.FaceLandmarkerCreate == nullptr || api.FaceLandmarkerDetectForVideo == nullptr ||
            api.FaceLandmarkerCloseResult == nullptr || api.FaceLandmarkerClose == nullptr)
            throw Failure(format("MediaPipe library %s has no face landmarker (MpFaceLandmarker… symbols)", library));
        auto lm = std::make_unique<sfw_landmarker>();
        lm->api = &api;
        FaceLandmarkerOptions options{};
        options.base_options.model_asset_path = model;
        options.base_options.delegate = kDelegateCPU;
        options.running_mode = kRunningModeVideo;
        options.num_faces = max_faces;
        const float c = min_confidence > 0 && min_confidence < 1 ? min_confidence : 0.5f;
        options.min_face_detection_confidence = c;
        options.min_face_presence_confidence = c;
        options.min_tracking_confidence = c;
        options.output_face_blendshapes = false;
        options.output_facial_transformation_matrixes = true;
        char *error = nullptr;
        int status;
        {
            StderrSilencer quiet;
            status = api.FaceLandmarkerCreate(&options, &lm->handle, &error);
        }
        if (status != 0 || lm->handle == nullptr) {
            lm->handle = nullptr;
            throw Failure(format("MediaPipe could not create a face landmarker from %s: %s (status %d)", model,
                                 take_error(api, error).c_str(), status));
        }
        if (error) api.ErrorFree(error);
        // Warm up quietly (the first inference logs LiteRT notices); timestamp 0, so real frames follow it.
        {
            StderrSilencer quiet;
            const cv::Mat blank(64, 64, CV_8UC3, cv::Scalar::all(0));
            sfw_face_landmarks ignored;
            lm->detect(blank, 0, &ignored, 1);
        }
        return lm.release();
    });
}

int sfw_landmarker_detect(sfw_landmarker *lm, const uint8_t *rgb, int width, int height, int stride,
                          int64_t timestamp_ms, sfw_face_landmarks *faces, int max_faces, char *err, int errlen) {
    return sfw::guarded<int>(err, errlen, "face landmarks", -1, [&]() -> int {
        if (lm == nullptr) throw Failure("face landmarks: NULL landmarker");
        cv::Mat image = sfw::wrap_rgb(rgb, width, height, stride, "face landmarks");
        if (max_faces < 0 || (max_faces > 0 && faces == nullptr))
            throw Failure(format("face landmarks: bad output array (max_faces %d)", max_faces));
        if (!image.isContinuous()) image = image.clone();
        return lm->detect(image, timestamp_ms, faces, max_faces);
    });
}

void sfw_landmarker_destroy(sfw_landmarker *lm) {
    try {
        delete lm;
    } catch (...) {
    }
}

} // extern "C"
