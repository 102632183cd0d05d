// SDL2 (Debian: libsdl2-dev): the window, input and display of the executable only.
#include <SDL2/SDL.h>
