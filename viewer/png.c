// Copyright 2026 The acs authors.
//
// A small dependency-free PNG writer (8-bit RGB) for acs-viewer --screenshot.
//
// PNG (ISO/IEC 15948): signature, IHDR, one IDAT holding a zlib stream (RFC 1950) of the
// filtered rows, IEND; every chunk ends with the CRC-32 of its type and data. Each row is
// filtered with the PNG filter (none, sub, up or Paeth) of least absolute sum, the usual
// heuristic. The deflate stream (RFC 1951) is one block with the fixed Huffman code: greedy
// LZ77 matches found through hash chains over a 32 KiB window. Rendered images (flat
// backgrounds, repeated rows) compress well with it; no dynamic Huffman tables are needed.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer.h"

#define WINDOW    32768           // deflate window (maximum distance)
#define MINMATCH  3               // shortest match deflate encodes
#define MAXMATCH  258             // longest match deflate encodes
#define HASHBITS  15              // hash of the next 3 bytes
#define MAXCHAIN  48              // candidates tried per position


//---------------------------------- checksums -----------------------------------------------------

static uint32_t crcTable[256];


static void makeCrcTable(void) {
  for (uint32_t n=0; n < 256; n++) {
    uint32_t c = n;
    for (int k=0; k < 8; k++) {
      c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    crcTable[n] = c;
  }
}


static uint32_t crc32Update(uint32_t crc, const unsigned char* buf, size_t len) {
  uint32_t c = crc ^ 0xFFFFFFFFu;
  for (size_t i=0; i < len; i++) {
    c = crcTable[(c ^ buf[i]) & 0xFF] ^ (c >> 8);
  }
  return c ^ 0xFFFFFFFFu;
}


static uint32_t adler32(const unsigned char* buf, size_t len) {
  uint32_t a = 1, b = 0;
  for (size_t i=0; i < len; i++) {
    a = (a + buf[i]) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}


//---------------------------------- bit writer ----------------------------------------------------

typedef struct {
  unsigned char* buf;
  size_t len, cap;
  uint32_t bits;                  // pending bits, least significant first
  int nbits;                      // number of pending bits
} bitWriter;


// append n bits of v, least significant bit first (deflate's order for values)
static void putBits(bitWriter* w, uint32_t v, int n) {
  w->bits |= v << w->nbits;
  w->nbits += n;
  while (w->nbits >= 8) {
    w->buf[w->len++] = (unsigned char)(w->bits & 0xFF);
    w->bits >>= 8;
    w->nbits -= 8;
  }
}


// append a Huffman code of n bits, most significant bit first (deflate's order for codes)
static void putCode(bitWriter* w, uint32_t code, int n) {
  uint32_t r = 0;
  for (int i=0; i < n; i++) {
    r = (r << 1) | ((code >> i) & 1);
  }
  putBits(w, r, n);
}


static void flushBits(bitWriter* w) {
  if (w->nbits > 0) {
    w->buf[w->len++] = (unsigned char)(w->bits & 0xFF);
  }
  w->bits = 0;
  w->nbits = 0;
}


//---------------------------------- deflate (fixed Huffman) ---------------------------------------

static const int kLenBase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43,
                                 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const int kLenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4,
                                  4, 4, 4, 5, 5, 5, 5, 0};
static const int kDistBase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257,
                                  385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
                                  16385, 24577};
static const int kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9,
                                   9, 10, 10, 11, 11, 12, 12, 13, 13};


// literal/length symbol with the fixed code (RFC 1951, 3.2.6)
static void putSymbol(bitWriter* w, int sym) {
  if (sym < 144) {
    putCode(w, 0x30 + sym, 8);
  } else if (sym < 256) {
    putCode(w, 0x190 + sym - 144, 9);
  } else if (sym < 280) {
    putCode(w, sym - 256, 7);
  } else {
    putCode(w, 0xC0 + sym - 280, 8);
  }
}


static void putMatch(bitWriter* w, int len, int dist) {
  int i = 28;
  while (kLenBase[i] > len) {
    i--;
  }
  putSymbol(w, 257 + i);
  putBits(w, len - kLenBase[i], kLenExtra[i]);
  int k = 29;
  while (kDistBase[k] > dist) {
    k--;
  }
  putCode(w, k, 5);
  putBits(w, dist - kDistBase[k], kDistExtra[k]);
}


static uint32_t hash3(const unsigned char* p) {
  uint32_t v = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
  return (v * 2654435761u) >> (32 - HASHBITS);
}


// deflate data into w: one final block with the fixed Huffman code. Return 0, or -1 if out of
// memory.
static int deflateFixed(bitWriter* w, const unsigned char* data, size_t n) {
  int* head = malloc(sizeof(int) << HASHBITS);
  int* prev = malloc(sizeof(int) * WINDOW);
  if (!head || !prev) {
    free(head);
    free(prev);
    return -1;
  }
  for (int i=0; i < (1 << HASHBITS); i++) {
    head[i] = -1;
  }

  putBits(w, 1, 1);               // BFINAL
  putBits(w, 1, 2);               // BTYPE 01: fixed Huffman
  size_t i = 0;
  while (i < n) {
    int best = 0, bestdist = 0;
    if (i + MINMATCH <= n) {
      // longest match among the chain of earlier positions with the same hash
      uint32_t h = hash3(data + i);
      size_t maxlen = n - i < MAXMATCH ? n - i : MAXMATCH;
      int cand = head[h];
      for (int chain=0; cand >= 0 && chain < MAXCHAIN; chain++) {
        size_t dist = i - (size_t)cand;
        if (dist > WINDOW) {
          break;
        }
        if (data[cand + best] == data[i + best]) {
          size_t len = 0;
          while (len < maxlen && data[cand + len] == data[i + len]) {
            len++;
          }
          if ((int)len > best) {
            best = (int)len;
            bestdist = (int)dist;
            if (len == maxlen) {
              break;
            }
          }
        }
        int next = prev[cand % WINDOW];
        if (next >= cand) {
          break;
        }
        cand = next;
      }
    }

    size_t adv = best >= MINMATCH ? (size_t)best : 1;
    if (best >= MINMATCH) {
      putMatch(w, best, bestdist);
    } else {
      putSymbol(w, data[i]);
    }

    // insert the positions passed into the hash chains
    for (size_t k=0; k < adv; k++, i++) {
      if (i + MINMATCH <= n) {
        uint32_t h = hash3(data + i);
        prev[i % WINDOW] = head[h];
        head[h] = (int)i;
      }
    }
  }
  putSymbol(w, 256);              // end of block
  flushBits(w);
  free(head);
  free(prev);
  return 0;
}


//---------------------------------- filters -------------------------------------------------------

static int paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}


// filter one row (n bytes, bpp bytes per pixel) with filter type t into out
static void filterRow(unsigned char* out, const unsigned char* row, const unsigned char* up,
                      int n, int bpp, int t) {
  for (int i=0; i < n; i++) {
    int a = i >= bpp ? row[i - bpp] : 0;
    int b = up ? up[i] : 0;
    int c = (up && i >= bpp) ? up[i - bpp] : 0;
    int pred = t == 1 ? a : t == 2 ? b : t == 4 ? paeth(a, b, c) : 0;
    out[i] = (unsigned char)(row[i] - pred);
  }
}


//---------------------------------- PNG -----------------------------------------------------------

static void put32(unsigned char* p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}


// write a chunk: length, type, data, CRC of type and data
static int writeChunk(FILE* f, const char* type, const unsigned char* data, size_t len) {
  unsigned char head[8], tail[4];
  put32(head, (uint32_t)len);
  memcpy(head + 4, type, 4);
  uint32_t crc = crc32Update(0, head + 4, 4);
  crc = crc32Update(crc, data, len);
  put32(tail, crc);
  return fwrite(head, 1, 8, f) != 8 || (len && fwrite(data, 1, len, f) != len) ||
         fwrite(tail, 1, 4, f) != 4;
}


int acsv_writePng(const char* path, const unsigned char* rgb, int width, int height,
                  char* error, int error_sz) {
  if (width <= 0 || height <= 0) {
    snprintf(error, error_sz, "%s: empty image (%d x %d)", path, width, height);
    return -1;
  }
  makeCrcTable();

  // filtered rows: a filter-type byte, then the row
  size_t stride = 3 * (size_t)width, rawlen = (stride + 1) * (size_t)height;
  unsigned char* raw = malloc(rawlen);
  unsigned char* trial = malloc(stride);
  // worst case of the fixed code: 9 bits per literal, plus zlib header, block end and Adler-32
  size_t cap = rawlen + rawlen / 8 + 64;
  bitWriter w = {malloc(cap), 0, cap, 0, 0};
  if (!raw || !trial || !w.buf) {
    free(raw);
    free(trial);
    free(w.buf);
    snprintf(error, error_sz, "%s: out of memory", path);
    return -1;
  }
  for (int y=0; y < height; y++) {
    const unsigned char* row = rgb + y*stride;
    const unsigned char* up = y > 0 ? row - stride : NULL;
    unsigned char* out = raw + y*(stride + 1);
    long best = -1;
    for (int t=0; t <= 4; t++) {
      if (t == 3) {
        continue;                 // average: rarely the best on rendered images
      }
      filterRow(trial, row, up, (int)stride, 3, t);
      long sum = 0;
      for (size_t i=0; i < stride; i++) {
        sum += trial[i] < 128 ? trial[i] : 256 - trial[i];
      }
      if (best < 0 || sum < best) {
        best = sum;
        out[0] = (unsigned char)t;
        memcpy(out + 1, trial, stride);
      }
    }
  }

  // zlib stream: header (deflate, 32 KiB window, no dictionary), data, Adler-32 of the raw data
  w.buf[w.len++] = 0x78;
  w.buf[w.len++] = 0x01;
  int err = deflateFixed(&w, raw, rawlen);
  if (!err) {
    put32(w.buf + w.len, adler32(raw, rawlen));
    w.len += 4;
  }
  free(raw);
  free(trial);
  if (err) {
    free(w.buf);
    snprintf(error, error_sz, "%s: out of memory", path);
    return -1;
  }

  // file
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  unsigned char ihdr[13];
  put32(ihdr, (uint32_t)width);
  put32(ihdr + 4, (uint32_t)height);
  ihdr[8] = 8;                    // bit depth
  ihdr[9] = 2;                    // color type: RGB
  ihdr[10] = ihdr[11] = ihdr[12] = 0;   // deflate, adaptive filtering, no interlace
  FILE* f = fopen(path, "wb");
  if (!f) {
    free(w.buf);
    snprintf(error, error_sz, "cannot open %s for writing", path);
    return -1;
  }
  int bad = fwrite(signature, 1, 8, f) != 8;
  bad = bad || writeChunk(f, "IHDR", ihdr, sizeof(ihdr));
  bad = bad || writeChunk(f, "IDAT", w.buf, w.len);
  bad = bad || writeChunk(f, "IEND", NULL, 0);
  bad = fclose(f) != 0 || bad;
  free(w.buf);
  if (bad) {
    snprintf(error, error_sz, "error writing %s", path);
    return -1;
  }
  return 0;
}
