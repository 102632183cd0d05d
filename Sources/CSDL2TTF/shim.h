// SDL2_ttf (Debian: libsdl2-ttf-dev): the window's HUD text.
#include <SDL2/SDL_ttf.h>
