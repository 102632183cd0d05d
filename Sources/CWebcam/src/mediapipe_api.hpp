// mediapipe_api.hpp — the C ABI of libmediapipe.so (PyPI mediapipe==1.2.2), transcribed from the
// wheel's ctypes files (no header ships; keep in sync): base options, the face detector
// (BlazeFace) and the face landmarker, images and errors. The library is loaded once per path
// with dlopen(RTLD_NOW | RTLD_LOCAL) and never unloaded. Shared by mediapipe_detector.cpp and
// face_landmarker.cpp. Not part of the API.
#pragma once

#include "internal.hpp"

namespace sfw::mp {

// tasks/python/core/base_options_c.py
struct BaseOptions {
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

// vision/face_detector.py, components/containers/{detections,rect,keypoint,category}_c.py
struct FaceDetectorOptions {
    BaseOptions base_options;
    int running_mode;  // 1 image, 2 video, 3 live stream
    float min_detection_confidence;
    float min_suppression_threshold;
    void *result_callback;  // live stream only
};
struct Category {
    int index;
    float score;
    const char *category_name;
    const char *display_name;
};
struct Rect {
    int left, top, bottom, right;  // sic: bottom before right
};
struct NormalizedKeypoint {
    float x, y;  // 0–1 of the input image
    const char *label;
    float score;
};
struct Detection {
    Category *categories;
    uint32_t categories_count;
    Rect bounding_box;
    NormalizedKeypoint *keypoints;
    uint32_t keypoints_count;
};
struct DetectionResult {
    Detection *detections;
    uint32_t detections_count;
};

// vision/face_landmarker.py, components/containers/{landmark,matrix,category}_c.py
struct FaceLandmarkerOptions {
    BaseOptions base_options;
    int running_mode;
    int num_faces;
    float min_face_detection_confidence;
    float min_face_presence_confidence;
    float min_tracking_confidence;
    bool output_face_blendshapes;
    bool output_facial_transformation_matrixes;
    void *result_callback;  // live stream only
};
struct NormalizedLandmark {
    float x, y, z;  // x, y: 0–1 of the image; z: depth relative to the face centre, in x's scale
    bool has_visibility;
    float visibility;
    bool has_presence;
    float presence;
    const char *name;
};
struct NormalizedLandmarks {
    NormalizedLandmark *landmarks;
    uint32_t landmarks_count;
};
struct Categories {
    Category *categories;
    uint32_t categories_count;
};
struct Matrix {
    uint32_t rows, cols;
    float *data;  // column-major
};
struct FaceLandmarkerResult {
    NormalizedLandmarks *face_landmarks;
    uint32_t face_landmarks_count;
    Categories *face_blendshapes;
    uint32_t face_blendshapes_count;
    Matrix *facial_transformation_matrixes;
    uint32_t facial_transformation_matrixes_count;
};

enum { kImageFormatSRGB = 1, kRunningModeImage = 1, kRunningModeVideo = 2, kDelegateCPU = 1 };

struct Api {
    int (*FaceDetectorCreate)(const FaceDetectorOptions *, void **, char **);
    int (*FaceDetectorDetectImage)(void *, void *, const void *, DetectionResult *, char **);
    void (*FaceDetectorCloseResult)(DetectionResult *);
    int (*FaceDetectorClose)(void *, char **);
    // The landmarker's entry points (null when the library lacks them: then only BlazeFace works).
    int (*FaceLandmarkerCreate)(const FaceLandmarkerOptions *, void **, char **);
    int (*FaceLandmarkerDetectForVideo)(void *, void *, const void *, int64_t, FaceLandmarkerResult *, char **);
    void (*FaceLandmarkerCloseResult)(FaceLandmarkerResult *);
    int (*FaceLandmarkerClose)(void *, char **);
    int (*ImageCreateFromUint8Data)(int, int, int, const uint8_t *, int, void **, char **);
    void (*ImageFree)(void *);
    void (*ErrorFree)(char *);
};

// Loads `path` once per process and resolves the API; throws Failure naming the file.
const Api &load_api(const std::string &path);

// Takes ownership of a MediaPipe error string and returns it ("no message" for NULL).
std::string take_error(const Api &api, char *error);

// Wraps a contiguous RGB image for MediaPipe (which copies it); the caller frees it with ImageFree.
void *wrap_image(const Api &api, const cv::Mat &rgb);

// Points fd 2 at /dev/null for its lifetime (MediaPipe logs ~10 INFO lines per graph creation
// through its own logger; no environment variable silences them). Process-wide and nesting:
// fd 2 is shared by every thread, so the first silencer saves and redirects it and the last one
// restores it.
class StderrSilencer {
public:
    StderrSilencer();
    ~StderrSilencer();
    StderrSilencer(const StderrSilencer &) = delete;
    StderrSilencer &operator=(const StderrSilencer &) = delete;
};

} // namespace sfw::mp
