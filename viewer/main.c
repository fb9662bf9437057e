// Copyright 2026 The acs authors.
//
// acs-viewer: several contact solvers on one scene, side by side, live, in a GLFW window.
//
//   acs-viewer [MODEL.xml] [--solvers mujoco,pgs,admm] [--width W] [--height H]
//              [--frames N] [--screenshot FILE.png] [--realtime] [--quality low|high]
//              [--camera AZIMUTH,ELEVATION[,DISTANCE]]
//
// One pane per solver (up to 6), each with its own mjData, all starting from the same state and
// stepping in lock-step with the same controls and mouse perturbation; one shared camera.
// --frames N renders N frames and exits, advancing the simulation by 1/60 s per frame (or with
// the wall clock, --realtime); --screenshot also writes the last frame as a PNG. Both print the
// frame rate and the simulated-time / wall-time ratio.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>

#include "viewer.h"

#define DEFAULT_SOLVERS "mujoco,pgs,admm"

// the viewer: large (figures), and reached from the GLFW callbacks
static acsvViewer viewer;


//---------------------------------- GLFW callbacks ------------------------------------------------

// cursor position in framebuffer pixels, origin bottom left
static void framebufferPos(GLFWwindow* window, double xpos, double ypos, double* x, double* y) {
  int ww, wh, fw, fh;
  glfwGetWindowSize(window, &ww, &wh);
  glfwGetFramebufferSize(window, &fw, &fh);
  double sx = ww > 0 ? (double)fw / ww : 1, sy = wh > 0 ? (double)fh / wh : 1;
  *x = xpos * sx;
  *y = fh - ypos * sy;
}


static void keyCallback(GLFWwindow* window, int key, int scancode, int act, int mods) {
  (void)window;
  (void)scancode;
  // a held key repeats only single steps; toggles act once per press
  if (act == GLFW_PRESS || (act == GLFW_REPEAT && key == GLFW_KEY_RIGHT)) {
    acsv_key(&viewer, key, mods);
  }
}


static void buttonCallback(GLFWwindow* window, int button, int act, int mods) {
  double xpos, ypos, x, y;
  glfwGetCursorPos(window, &xpos, &ypos);
  framebufferPos(window, xpos, ypos, &x, &y);
  acsv_mouseButton(&viewer, button, act == GLFW_PRESS, mods, x, y, glfwGetTime());
}


static void cursorCallback(GLFWwindow* window, double xpos, double ypos) {
  double x, y;
  framebufferPos(window, xpos, ypos, &x, &y);
  viewer.mod_shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                     glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  acsv_mouseMove(&viewer, x, y);
}


static void scrollCallback(GLFWwindow* window, double xoffset, double yoffset) {
  (void)window;
  (void)xoffset;
  acsv_scroll(&viewer, yoffset);
}


static void dropCallback(GLFWwindow* window, int count, const char** paths) {
  (void)window;
  if (count > 0) {
    viewer.load_file[0] = 0;
    acsv_append(viewer.load_file, sizeof(viewer.load_file), paths[0]);
  }
}


static void errorCallback(int code, const char* text) {
  fprintf(stderr, "acs-viewer: GLFW error %d: %s\n", code, text);
}


//---------------------------------- window --------------------------------------------------------

// a window with a current OpenGL context; NULL on failure
static GLFWwindow* makeWindow(int width, int height, int multisample, int fixed_size) {
  glfwWindowHint(GLFW_SAMPLES, multisample ? 4 : 0);
  glfwWindowHint(GLFW_RESIZABLE, fixed_size ? GLFW_FALSE : GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, "acs-viewer", NULL, NULL);
  if (window) {
    glfwMakeContextCurrent(window);
  }
  return window;
}


// the current OpenGL context renders in software (Mesa's llvmpipe, softpipe, swrast)
static int softwareRenderer(void) {
  const char* r = (const char*)glGetString(GL_RENDERER);
  return r && (strstr(r, "llvmpipe") || strstr(r, "softpipe") || strstr(r, "Software") ||
               strstr(r, "swrast"));
}


//---------------------------------- command line --------------------------------------------------

static void usage(FILE* f) {
  fprintf(f,
    "usage: acs-viewer [MODEL.xml] [--solvers LIST] [--width W] [--height H]\n"
    "                  [--frames N] [--screenshot FILE.png] [--realtime]\n"
    "                  [--quality low|high] [--camera AZIMUTH,ELEVATION[,DISTANCE]]\n"
    "  --solvers     comma-separated, up to %d panes: mujoco (plain mj_step) or acs solvers:\n"
    "               ", acsvMAXPANE);
  for (int i=0; i < acsv_solverCount(); i++) {
    fprintf(f, " %s", acsv_solverName(i));
  }
  fprintf(f, "\n"
    "                default " DEFAULT_SOLVERS "\n"
    "  --width, --height  window size in pixels (default 1280 x 720)\n"
    "  --frames N    render N frames and exit; each frame advances the simulation by 1/60 s\n"
    "  --realtime    with --frames: follow the wall clock instead, as the interactive viewer\n"
    "  --screenshot FILE.png  write the last frame as PNG and exit (--frames default 120)\n"
    "  --quality     high: multisampling, shadows, reflections; low: none of them;\n"
    "                default high, low on a software OpenGL renderer (llvmpipe: Xvfb)\n"
    "  --camera      initial free camera: azimuth and elevation (degrees), distance (m);\n"
    "                default the model's (<visual><global>, extent)\n"
    "Press F1 in the window for the keys and mouse actions.\n");
}


static int parsePositive(const char* text, int* value, int max) {
  char* end;
  long v = strtol(text, &end, 10);
  if (!*text || *end || v < 1 || v > max) {
    return -1;
  }
  *value = (int)v;
  return 0;
}


// split a comma-separated solver list into names; return the count or -1 with a message
static int parseSolvers(char names[][acsvNAME], const char* list, char* error, int error_sz) {
  int n = 0;
  const char* s = list;
  while (1) {
    const char* e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len == 0) {
      snprintf(error, error_sz, "--solvers: empty name in '%s'", list);
      return -1;
    }
    if (n == acsvMAXPANE) {
      snprintf(error, error_sz, "--solvers: at most %d panes, got more in '%s'", acsvMAXPANE,
               list);
      return -1;
    }
    char name[acsvNAME];
    snprintf(name, sizeof(name), "%.*s", (int)(len < acsvNAME ? len : acsvNAME - 1), s);
    char err[acsNERROR];
    if (len >= acsvNAME || acsv_solverIndex(name, err, sizeof(err)) < 0) {
      snprintf(error, error_sz, "--solvers: %s",
               len >= acsvNAME ? "solver name too long" : err);
      return -1;
    }
    snprintf(names[n++], acsvNAME, "%s", name);
    if (!e) {
      return n;
    }
    s = e + 1;
  }
}


//---------------------------------- main ----------------------------------------------------------

int main(int argc, char** argv) {
  const char* model = NULL;
  const char* solvers = DEFAULT_SOLVERS;
  const char* screenshot = NULL;
  int width = 1280, height = 720, frames = 0, realtime = 0, quality = -1;
  double camera[3] = {0, 0, 0};
  int ncamera = 0;
  for (int i=1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i+1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--realtime")) {
      realtime = 1;
    } else if (a[0] == '-' && a[1] == '-' && !v) {
      fprintf(stderr, "acs-viewer: %s needs a value (see --help)\n", a);
      return 2;
    } else if (!strcmp(a, "--solvers")) {
      solvers = argv[++i];
    } else if (!strcmp(a, "--screenshot")) {
      screenshot = argv[++i];
    } else if (!strcmp(a, "--camera")) {
      char extra;
      ncamera = sscanf(argv[++i], "%lf,%lf,%lf%c", camera, camera + 1, camera + 2, &extra);
      if (ncamera < 2 || ncamera > 3 || (ncamera == 3 && !(camera[2] > 0))) {
        fprintf(stderr, "acs-viewer: --camera takes AZIMUTH,ELEVATION[,DISTANCE] (degrees, "
                "degrees, m > 0), got '%s'\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--quality")) {
      quality = !strcmp(v, "high") ? 1 : !strcmp(v, "low") ? 0 : -2;
      if (quality == -2) {
        fprintf(stderr, "acs-viewer: --quality must be low or high, got '%s'\n", v);
        return 2;
      }
      i++;
    } else if (!strcmp(a, "--frames") || !strcmp(a, "--width") || !strcmp(a, "--height")) {
      int* target = a[2] == 'f' ? &frames : a[2] == 'w' ? &width : &height;
      int max = a[2] == 'f' ? 100000000 : 16384;
      if (parsePositive(argv[++i], target, max)) {
        fprintf(stderr, "acs-viewer: %s must be an integer in [1, %d], got '%s'\n", a, max, v);
        return 2;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "acs-viewer: unknown option %s (see --help)\n", a);
      return 2;
    } else if (!model) {
      model = a;
    } else {
      fprintf(stderr, "acs-viewer: more than one model given: %s\n", a);
      return 2;
    }
  }
  if (screenshot && frames == 0) {
    frames = 120;
  }
  if (realtime && frames == 0) {
    fprintf(stderr, "acs-viewer: --realtime applies to --frames or --screenshot runs\n");
    return 2;
  }

  char names[acsvMAXPANE][acsvNAME];
  char error[acsvNTEXT];
  int npane = parseSolvers(names, solvers, error, sizeof(error));
  if (npane < 0) {
    fprintf(stderr, "acs-viewer: %s\n", error);
    return 2;
  }
  acs_registerPlugin();

  // window and OpenGL context
  glfwSetErrorCallback(errorCallback);
  if (!glfwInit()) {
    fprintf(stderr, "acs-viewer: could not initialize GLFW (no display? try xvfb-run -a)\n");
    return 1;
  }
  GLFWwindow* window = makeWindow(width, height, quality != 0, frames);
  if (window && quality < 0) {
    // software rendering draws a 4096^2 shadow map per pane and light: ten times slower
    quality = !softwareRenderer();
    if (!quality) {
      printf("acs-viewer: software OpenGL (%s): multisampling, shadows and reflections off "
             "(--quality high turns them on)\n", (const char*)glGetString(GL_RENDERER));
      glfwDestroyWindow(window);
      window = makeWindow(width, height, 0, frames);
    }
  }
  if (!window) {
    fprintf(stderr, "acs-viewer: could not create a %d x %d window with OpenGL\n", width,
            height);
    glfwTerminate();
    return 1;
  }
  glfwSwapInterval(frames ? 0 : 1);   // --frames measures: no v-sync

  // viewer: font for the window's size, text works before a model is loaded
  acsvViewer* v = &viewer;
  acsv_initViewer(v);
  v->shadow = v->reflection = quality;
  int fbw, fbh;
  glfwGetFramebufferSize(window, &fbw, &fbh);
  v->fontscale = fbh >= 1300 ? mjFONTSCALE_200 : fbh >= 900 ? mjFONTSCALE_150 : mjFONTSCALE_100;
  mjr_makeContext(NULL, &v->con, v->fontscale);
  acsv_setSolvers(&v->sim, (const char (*)[acsvNAME])names, npane);
  int failed = 0;
  if (model && acsv_load(v, model, error, sizeof(error))) {
    fprintf(stderr, "acs-viewer: could not load %s: %s\n", model, error);
    failed = 1;
  }
  if (v->sim.m && ncamera >= 2) {
    v->cam.azimuth = camera[0];
    v->cam.elevation = camera[1];
    if (ncamera == 3) {
      v->cam.distance = camera[2];
    }
  }
  for (int i=0; v->sim.m && i < v->sim.npane; i++) {
    const acsvPane* p = v->sim.pane + i;
    if (p->failed || p->error[0]) {
      fprintf(stderr, "acs-viewer: pane %d (%s): %s\n", i + 1, p->name, p->error);
    }
  }

  glfwSetKeyCallback(window, keyCallback);
  glfwSetMouseButtonCallback(window, buttonCallback);
  glfwSetCursorPosCallback(window, cursorCallback);
  glfwSetScrollCallback(window, scrollCallback);
  glfwSetDropCallback(window, dropCallback);

  // main loop
  double start = glfwGetTime();
  double sim_start = v->sim.time, step_start = v->sim.wall_step;
  int frame = 0;
  while (!glfwWindowShouldClose(window) && !v->quit) {
    if (v->load_file[0]) {
      char file[acsvNPATH] = "";
      acsv_append(file, sizeof(file), v->load_file);
      v->load_file[0] = 0;
      if (acsv_load(v, file, error, sizeof(error))) {
        fprintf(stderr, "acs-viewer: could not load %s: %s\n", file, error);
      }
    }

    double now = glfwGetTime();
    int last = frames && frame + 1 == frames;
    acsv_advance(v, now, (frames && !realtime) ? 1.0/60 : 0, last);
    glfwGetFramebufferSize(window, &fbw, &fbh);
    acsv_layout(v, fbw, fbh);
    acsv_render(v, now);
    frame++;

    if (last) {
      if (screenshot) {
        unsigned char* rgb = malloc(3 * (size_t)fbw * fbh);
        unsigned char* flip = malloc(3 * (size_t)fbw * fbh);
        if (!rgb || !flip) {
          fprintf(stderr, "acs-viewer: out of memory for the screenshot\n");
          failed = 1;
        } else {
          // OpenGL rows go bottom to top, PNG rows top to bottom
          mjr_readPixels(rgb, NULL, (mjrRect){0, 0, fbw, fbh}, &v->con);
          for (int y=0; y < fbh; y++) {
            memcpy(flip + 3*(size_t)fbw*y, rgb + 3*(size_t)fbw*(fbh - 1 - y), 3*(size_t)fbw);
          }
          if (acsv_writePng(screenshot, flip, fbw, fbh, error, sizeof(error))) {
            fprintf(stderr, "acs-viewer: %s\n", error);
            failed = 1;
          } else {
            printf("acs-viewer: wrote %s (%d x %d)\n", screenshot, fbw, fbh);
          }
        }
        free(rgb);
        free(flip);
      }
      break;
    }
    glfwSwapBuffers(window);
    glfwPollEvents();
  }

  // frame rate and real-time ratio of the run
  double wall = glfwGetTime() - start;
  double simulated = v->sim.time - sim_start;
  printf("acs-viewer: %d frames in %.2f s: %.1f fps; simulated %.3f s: %.2fx real time "
         "(stepping %.2f s, %d panes)\n", frame, wall, wall > 0 ? frame / wall : 0, simulated,
         wall > 0 ? simulated / wall : 0, v->sim.wall_step - step_start, v->sim.npane);

  acsv_freeViewer(v);
  glfwDestroyWindow(window);
  glfwTerminate();
  return failed ? 1 : 0;
}
