/* SplatFrameWebcam.h — the C API of SplatFrame's native webcam layer: frame capture (V4L2
 * camera, video file or still image), small RGB image helpers for tests, a face detector with
 * two back ends (MediaPipe BlazeFace loaded at run time with dlopen; OpenCV Haar cascades), and
 * MediaPipe's Face Landmarker (478 landmarks and the head's pose) from the same library.
 *
 * Contract, for every function here:
 *  - Pure C; no C++ exception ever crosses this boundary. Failing calls return NULL or -1 and,
 *    when `err` is non-NULL and `errlen` > 0, write a NUL-terminated one-line message naming
 *    the file/device and what was wrong (truncated to errlen - 1 bytes). On success `err` is
 *    left untouched.
 *  - Images are 8-bit RGB (R, G, B byte order), top-left origin. "Tightly packed" means a row
 *    stride of exactly width * 3 bytes.
 *  - Point coordinates (eyes, keypoints, sfw_warp_rgb) put pixel centres at integers: the
 *    top-left pixel's centre is (0, 0). Rectangles (face boxes, roi) are x, y = top-left corner
 *    of the first pixel, w, h = extent, so a box covering pixels 0..9 is (0, 0, 10, 10).
 *  - Handles are opaque. A handle may be used from one thread at a time (different handles may
 *    be used concurrently from different threads). Destroy/close functions accept NULL.
 */
#ifndef SPLATFRAME_WEBCAM_H
#define SPLATFRAME_WEBCAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- */
/* Capture                                                                                  */
/* ---------------------------------------------------------------------------------------- */

typedef struct sfw_capture sfw_capture;

/* Opens camera /dev/video<index> through V4L2, asking for width x height (<= 0: 640 x 480),
 * MJPG and a one-frame driver buffer (so reads return the newest frame). Fails fast, with
 * a message, when the device node is absent or not accessible; never waits for a camera. */
sfw_capture *sfw_capture_open_device(int index, int width, int height, char *err, int errlen);

/* Opens a video file (FFmpeg) or a still image (PNG, JPEG, BMP, TIFF, WebP, PPM…), which reads
 * as a one-frame video. The first frame is decoded here, so a file that opens but cannot be
 * decoded fails here rather than at the first read. */
sfw_capture *sfw_capture_open_file(const char *path, char *err, int errlen);

/* Opens a network stream (an MJPEG-over-HTTP or RTSP URL, anything OpenCV's FFmpeg backend
 * opens) with bounded waits: opening gives up after open_timeout_ms, each read after
 * read_timeout_ms (both >= 100; FFmpeg's own defaults wait ~30 s). The first frame is read here.
 * A read on a stream that ended or stalled returns -1 (never 0): the caller reconnects. */
sfw_capture *sfw_capture_open_url(const char *url, int open_timeout_ms, int read_timeout_ms, char *err, int errlen);

/* Frames per second as stored in the file (0 when unknown; 0 for a still image; the driver's
 * value for a camera). */
double sfw_capture_fps(const sfw_capture *cap);

/* Number of frames as reported by the container (an estimate for some formats; 1 for a still
 * image; 0 when unknown; -1 for a camera). */
int sfw_capture_frame_count(const sfw_capture *cap);

/* Frame size in pixels (that of the first frame). */
int sfw_capture_width(const sfw_capture *cap);
int sfw_capture_height(const sfw_capture *cap);

/* Reads the next frame into `rgb` (tightly packed RGB888, top-left origin) and sets *width,
 * *height (either may be NULL). Returns 1 when a frame was read, 0 at the end of a file (never
 * for a camera), -1 on error: camera stopped delivering frames (unplugged?), or `capacity_bytes`
 * < width * height * 3 (then *width and *height are still set, and the frame is kept for the
 * next call, so the caller can grow its buffer and call again). */
int sfw_capture_read(sfw_capture *cap, uint8_t *rgb, int capacity_bytes, int *width, int *height,
                     char *err, int errlen);

/* A camera's own time stamp of the frame the last sfw_capture_read returned, in milliseconds: V4L2's
 * buffer time (CLOCK_MONOTONIC on UVC cameras) through OpenCV's CAP_PROP_POS_MSEC. -1 when the back
 * end gives none (files, streams, stills). */
double sfw_capture_frame_time_ms(const sfw_capture *cap);

/* Restarts a file or still image at its first frame (for looping). Returns 0, or -1 for a
 * camera or when the file can no longer be opened. */
int sfw_capture_rewind(sfw_capture *cap, char *err, int errlen);

/* Closes the device or file and frees the handle. NULL is allowed. */
void sfw_capture_close(sfw_capture *cap);

/* ---------------------------------------------------------------------------------------- */
/* Image helpers (mainly for tests)                                                         */
/* ---------------------------------------------------------------------------------------- */

/* Decodes an image file into `rgb` (tightly packed). With rgb == NULL only *width / *height are
 * set (a size query). Returns 1, or -1 (unreadable file, or capacity < width * height * 3). */
int sfw_image_read_rgb(const char *path, uint8_t *rgb, int capacity_bytes, int *width, int *height,
                       char *err, int errlen);

/* Encodes `rgb` (row stride `stride` bytes; 0 = tightly packed) to a file whose format follows
 * the extension (.png, .jpg, .bmp, .ppm…). Returns 0 or -1. */
int sfw_image_write_rgb(const char *path, const uint8_t *rgb, int width, int height, int stride,
                        char *err, int errlen);

/* dst = src scaled by `scale` about the origin, then translated by (tx, ty):
 *     dst(x, y) = src((x - tx) / scale, (y - ty) / scale)
 * with pixel centres at integer coordinates, bilinear sampling and replicated borders (so
 * a feature at src pixel (u, v) appears at dst (scale * u + tx, scale * v + ty)). Sub-pixel
 * positions are quantised to 1/32 px (OpenCV warpAffine). Strides of 0 mean tightly packed.
 * src and dst must not overlap. Returns 0 or -1. */
int sfw_warp_rgb(const uint8_t *src, int src_width, int src_height, int src_stride,
                 uint8_t *dst, int dst_width, int dst_height, int dst_stride,
                 float scale, float tx, float ty, char *err, int errlen);

/* ---------------------------------------------------------------------------------------- */
/* Face detection                                                                           */
/* ---------------------------------------------------------------------------------------- */

typedef enum {
    SFW_BACKEND_MEDIAPIPE = 1, /* BlazeFace via libmediapipe.so (dlopen); 6 keypoints */
    SFW_BACKEND_HAAR = 2       /* OpenCV Haar face cascade + eye cascade; 2 keypoints at most */
} sfw_backend;

typedef struct {
    sfw_backend backend;
    /* MediaPipe: path of libmediapipe.so (required) and of the BlazeFace models. The short-range
     * model is required; the full-range model may be NULL, and then a detect call with
     * full_range != 0 fails. */
    const char *mediapipe_library;
    const char *short_range_model;
    const char *full_range_model;
    /* MediaPipe: minimum detection score, 0–1 (<= 0: 0.5). */
    float min_confidence;
    /* Haar: cascade files (NULL: the Debian opencv-data defaults, see sfw_detector_config_init). */
    const char *face_cascade;
    const char *eye_cascade;
    /* Haar: smallest face searched, in full-image pixels (<= 0: 48), and minNeighbors
     * (<= 0: 3). */
    int min_face_px;
    int min_neighbors;
} sfw_detector_config;

/* Fills *cfg with defaults: backend MediaPipe, no library/model paths (the caller must set
 * them), min_confidence 0.5, Haar cascades
 * /usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml and haarcascade_eye.xml,
 * min_face_px 48, min_neighbors 3. */
void sfw_detector_config_init(sfw_detector_config *cfg);

typedef struct {
    float x, y, w, h;  /* face box, full-image pixels; may extend beyond the image (MediaPipe) */
    /* MediaPipe: detection probability 0–1. Haar: number of raw detections merged into the
     * box (>= min_neighbors), not a probability. */
    float score;
    int has_eyes;      /* 1 when both eye centres below are valid */
    /* The person's right eye is on the image's left. Full-image pixels. */
    float right_eye_x, right_eye_y;
    float left_eye_x, left_eye_y;
    /* MediaPipe: 6 points: right eye, left eye, nose tip, mouth centre, right ear tragion, left
     * ear tragion. Haar: 2 points (right eye, left eye) when has_eyes, else 0. Pixels. */
    int keypoint_count;
    float keypoints[6][2];
} sfw_face;

typedef struct {
    float x, y, w, h;  /* pixels */
} sfw_rect;

typedef struct sfw_detector sfw_detector;

/* Creates a detector. MediaPipe: dlopens the library (RTLD_NOW | RTLD_LOCAL; a missing or
 * unloadable library, e.g. without Debian libegl1/libgles2, is a clean error the caller can
 * answer by falling back to Haar) and builds and warms up the BlazeFace graphs (~40–90 ms;
 * +~150 ms for the first dlopen of the 127 MB library). MediaPipe's INFO/WARNING lines are hidden
 * by pointing file descriptor 2 at /dev/null during this call and during sfw_detector_destroy,
 * so anything another thread writes to stderr meanwhile is lost. The library, once loaded,
 * stays loaded for the life of the process. Strings in *cfg are only read during the call. */
sfw_detector *sfw_detector_create(const sfw_detector_config *cfg, char *err, int errlen);

/* Detects faces in an RGB image (`stride` bytes per row; 0 = tightly packed).
 * timestamp_ms: the frame's time in ms. Currently unused by both back ends (MediaPipe runs in
 * IMAGE mode: measured as fast as VIDEO mode with identical results); any value is accepted.
 * Kept so a temporal back end can be added without an API change.
 * roi: NULL = the whole frame. Otherwise only that rectangle (clamped to the image; an empty
 * intersection gives 0 faces) is searched, and results are mapped back to full-image
 * coordinates. MediaPipe scales the crop to its 128 x 128 (short) / 192 x 192 (full range)
 * input, so a small far face is found in a small roi. Haar: inside a roi, faces smaller than
 * 1/5 of the roi's shorter side are not searched (roi = last face box grown 2x is the intended
 * use).
 * full_range: MediaPipe: use the full-range sparse model (slower; finds faces < ~55 px).
 * Haar: ignored.
 * Faces are written best first (MediaPipe: by score; Haar: by area), at most max_faces.
 * Returns the number written, or -1. */
int sfw_detector_detect(sfw_detector *det, const uint8_t *rgb, int width, int height, int stride,
                        int64_t timestamp_ms, const sfw_rect *roi, int full_range,
                        sfw_face *faces, int max_faces, char *err, int errlen);

/* "mediapipe" or "haar". */
const char *sfw_detector_backend_name(const sfw_detector *det);

/* Frees the detector (closes its MediaPipe graphs). NULL is allowed. */
void sfw_detector_destroy(sfw_detector *det);

/* ---------------------------------------------------------------------------------------- */
/* Face landmarks and head pose (MediaPipe Face Landmarker)                                 */
/* ---------------------------------------------------------------------------------------- */

/* 468 face-mesh points and 10 iris points (468–472: the person's right iris, centre first;
 * 473–477: the left). */
#define SFW_FACE_LANDMARKS 478

typedef struct {
    /* Box around the landmarks, full-image pixels. */
    float x, y, w, h;
    int landmark_count;
    /* x, y: full-image pixels (pixel centres at integers); z: depth relative to the face's
     * centre in the same pixel scale as x (smaller = nearer the camera). */
    float landmarks[SFW_FACE_LANDMARKS][3];
    /* 1 when `matrix` is valid. */
    int has_matrix;
    /* Column-major 4x4 transform from MediaPipe's canonical face model (centimetres; x towards
     * the image's right when the face looks at the camera, y up, z out of the face) into the
     * camera space of MediaPipe's virtual camera (OpenGL axes: x right, y up, looking down -z;
     * 63 degrees vertical field of view over the image height, principal point at the centre). */
    float matrix[16];
} sfw_face_landmarks;

typedef struct sfw_landmarker sfw_landmarker;

/* Creates a Face Landmarker in VIDEO mode from `model` (face_landmarker.task) through the
 * MediaPipe `library`, following at most `max_faces` (1–8) faces; min_confidence 0–1 (<= 0:
 * 0.5) is used for detection, presence and tracking. Builds and warms up the graphs (~100 ms)
 * with fd 2 pointed at /dev/null, as sfw_detector_create does. */
sfw_landmarker *sfw_landmarker_create(const char *library, const char *model, int max_faces, float min_confidence,
                                      char *err, int errlen);

/* Landmarks and head pose of the faces in one frame (RGB, `stride` bytes per row; 0 = tightly
 * packed). timestamp_ms must increase from call to call (VIDEO mode tracks from the previous
 * frame); a timestamp not after the last one is moved to last + 1. Writes at most max_faces
 * faces; returns how many, or -1. */
int sfw_landmarker_detect(sfw_landmarker *lm, const uint8_t *rgb, int width, int height, int stride,
                          int64_t timestamp_ms, sfw_face_landmarks *faces, int max_faces, char *err, int errlen);

/* Frees the landmarker. NULL is allowed. */
void sfw_landmarker_destroy(sfw_landmarker *lm);

/* The OpenCV version string this layer was built against, e.g. "4.6.0". */
const char *sfw_opencv_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SPLATFRAME_WEBCAM_H */
