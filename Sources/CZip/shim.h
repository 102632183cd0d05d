// libzip (Debian: libzip-dev): the ZIP container of bundled PlayCanvas SOG (.sog).
#include <zip.h>
