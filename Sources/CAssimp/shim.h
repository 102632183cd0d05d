// Assimp's C API (Debian's libassimp-dev), used only by the importer child process.
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <assimp/postprocess.h>
#include <assimp/material.h>
#include <assimp/version.h>
