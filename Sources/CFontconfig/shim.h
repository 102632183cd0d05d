// fontconfig (Debian: libfontconfig-dev): finds the HUD's font file by name.
#include <fontconfig/fontconfig.h>
