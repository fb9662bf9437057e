// Copyright 2026 The acs authors.
//
// PNG screenshots of acs-viewer (--screenshot), written with libpng (Debian: libpng-dev).

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "viewer.h"

// libpng reports errors through longjmp to the setjmp of the caller; keep its message
static void pngError(png_structp png, png_const_charp message) {
  char* error = (char*)png_get_error_ptr(png);
  snprintf(error, 256, "%s", message);
  png_longjmp(png, 1);
}


int acsv_writePng(const char* path, const unsigned char* rgb, int width, int height,
                  char* error, int error_sz) {
  if (width <= 0 || height <= 0) {
    snprintf(error, error_sz, "%s: empty image (%d x %d)", path, width, height);
    return -1;
  }
  FILE* f = fopen(path, "wb");
  if (!f) {
    snprintf(error, error_sz, "cannot open %s for writing", path);
    return -1;
  }
  char message[256] = "";
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, pngError, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_write_struct(png ? &png : NULL, NULL);
    fclose(f);
    snprintf(error, error_sz, "%s: out of memory", path);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    fclose(f);
    snprintf(error, error_sz, "error writing %s: %s", path, message);
    return -1;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y=0; y < height; y++) {
    png_write_row(png, rgb + (size_t)y * 3 * (size_t)width);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  if (fclose(f)) {
    snprintf(error, error_sz, "error writing %s", path);
    return -1;
  }
  return 0;
}
