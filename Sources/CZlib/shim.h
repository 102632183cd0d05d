// zlib (Debian: zlib1g-dev): gzip/deflate for .spz v2/v3.
#include <zlib.h>
