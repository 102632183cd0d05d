// Media — pictures and videos: camera and video-file capture (`VideoCapture`, `RGBFrame`), video
// textures that play on the room's walls (`VideoTexture`), and a wall's file opened as a picture
// or a video (`MediaFile`). Used by Viewer (video walls) and WebcamTracking (camera frames), over
// the native layer's OpenCV (CWebcam) and ImageIO.
//
// Contract: every failure is a one-line `MediaError` naming the file or device; a camera is never
// waited for; `VideoTexture` decodes on its own thread, stopped and joined when the texture goes.
