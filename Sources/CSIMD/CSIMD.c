// CSIMD has no compiled code: see include/CSIMD.h.
