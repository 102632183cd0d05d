// SDL2 and SDL2_image (Debian: libsdl2-dev, libsdl2-image-dev).
#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
