// libpng's simplified API (Debian: libpng-dev); constants Swift cannot import from composite macros.
#include <png.h>
static const unsigned int splatframe_png_image_version = PNG_IMAGE_VERSION;
static const unsigned int splatframe_png_format_rgba = PNG_FORMAT_RGBA;
