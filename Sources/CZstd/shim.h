// libzstd (Debian: libzstd-dev): the streams of .spz v4.
#include <zstd.h>
