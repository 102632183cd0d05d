// libwebp (Debian: libwebp-dev): the lossless WebP images inside PlayCanvas SOG (encode.h for tests).
#include <webp/decode.h>
#include <webp/encode.h>
