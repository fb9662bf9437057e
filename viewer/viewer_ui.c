// Copyright 2026 The acs authors.
//
// Rendering and interaction of acs-viewer: the pane grid (one MuJoCo scene per pane, one shared
// camera), the per-pane numbers (mjr_overlay), the residual and step-time figures with one line
// per pane (mjr_figure), the status line and the help overlay; keys and mouse in the habits of
// MuJoCo's simulate.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <GLFW/glfw3.h>

#include "viewer.h"

// pane colors: title bars and figure lines
static const float kPaneRgb[acsvMAXPANE][3] = {
  {0.98f, 0.62f, 0.22f},          // orange
  {0.36f, 0.76f, 1.00f},          // sky blue
  {0.50f, 0.88f, 0.40f},          // green
  {0.95f, 0.45f, 0.80f},          // pink
  {0.95f, 0.88f, 0.30f},          // yellow
  {0.72f, 0.60f, 1.00f},          // lavender
};

static const char kHelpKeys[] =
  "Space\n"
  "Right arrow\n"
  "Backspace\n"
  "1 .. 6\n"
  "Tab, Shift+Tab\n"
  "Enter\n"
  "-  =\n"
  "C\n"
  "F\n"
  "T\n"
  "S\n"
  "R\n"
  "F1\n"
  "F2\n"
  "F3\n"
  "[  ]\n"
  "Esc\n"
  "Page Up\n"
  "Ctrl+L\n"
  "Ctrl+Q";

static const char kHelpKeyActions[] =
  "Pause / run\n"
  "Step once (paused)\n"
  "Reset all panes (keyframe 0)\n"
  "Make pane current\n"
  "Next / previous solver in current pane\n"
  "Copy current pane's state to all panes\n"
  "Slower / faster (1/2^k real time)\n"
  "Contact points\n"
  "Contact forces\n"
  "Transparent bodies\n"
  "Shadows\n"
  "Reflections\n"
  "This help\n"
  "Pane numbers\n"
  "Figures\n"
  "Previous / next model camera\n"
  "Free camera\n"
  "Select parent body\n"
  "Reload model file\n"
  "Quit";

static const char kHelpMouse[] =
  "Left drag\n"
  "Right drag\n"
  "Scroll, middle drag\n"
  "Click\n"
  "Left double-click\n"
  "Right double-click\n"
  "Ctrl+right double-click\n"
  "Ctrl+left drag\n"
  "Ctrl+right drag\n"
  "Drop a file";

static const char kHelpMouseActions[] =
  "Rotate view (Shift: horizontal)\n"
  "Move view (Shift: horizontal)\n"
  "Zoom\n"
  "Make pane current\n"
  "Select body\n"
  "Center view on point\n"
  "Track body\n"
  "Rotate selected body (Shift: horizontal)\n"
  "Pull selected body (Shift: horizontal)\n"
  "Load model (.xml, .mjb)";


//---------------------------------- text ----------------------------------------------------------

static int charWidth(const mjrContext* con, char c) {
  unsigned char u = (unsigned char)c;
  return con->charWidth[u < 127 ? u : '?'];
}


// word-wrap text to a width in pixels with the normal font; words longer than a line are broken
static void wrapText(char* out, int out_sz, const char* in, int width, const mjrContext* con) {
  int o = 0, linew = 0;
  const int sw = charWidth(con, ' ');
  const char* s = in;
  while (*s && o < out_sz - 1) {
    if (*s == '\n') {
      out[o++] = '\n';
      linew = 0;
      s++;
      continue;
    }
    if (*s == ' ' || *s == '\t') {
      s++;
      continue;
    }

    // the next word
    const char* e = s;
    int ww = 0;
    while (*e && *e != ' ' && *e != '\t' && *e != '\n') {
      ww += charWidth(con, *e++);
    }
    if (linew > 0) {
      if (linew + sw + ww > width) {
        out[o++] = '\n';
        linew = 0;
      } else {
        out[o++] = ' ';
        linew += sw;
      }
    }
    for (; s < e && o < out_sz - 1; s++) {
      int cw = charWidth(con, *s);
      if (linew > 0 && linew + cw > width) {
        out[o++] = '\n';
        linew = 0;
        if (o == out_sz - 1) {
          break;
        }
      }
      out[o++] = *s;
      linew += cw;
    }
  }
  out[o] = 0;
}


// append formatted text: a number with a format, or "-" if it is not finite
static void appendNumber(char* buf, int sz, const char* fmt, double v) {
  size_t len = strlen(buf);
  if (isfinite(v)) {
    snprintf(buf + len, sz - len, fmt, v);
  } else {
    size_t k = strlen(fmt);
    snprintf(buf + len, sz - len, "-%s", k > 0 && fmt[k-1] == '\n' ? "\n" : "");
  }
}


//---------------------------------- figures -------------------------------------------------------

static void initFigures(acsvViewer* v) {
  static const char* title[acsvNFIG] = {"NCP residual (log10)", "Step time (us)"};
  for (int k=0; k < acsvNFIG; k++) {
    mjvFigure* f = v->fig + k;
    mjv_defaultFigure(f);
    snprintf(f->title, sizeof(f->title), "%s", title[k]);
    snprintf(f->xlabel, sizeof(f->xlabel), "simulated time (s)");
    snprintf(f->xformat, sizeof(f->xformat), "%%.1f");
    snprintf(f->yformat, sizeof(f->yformat), "%%.0f");
    snprintf(f->minwidth, sizeof(f->minwidth), k == 0 ? "-10" : "1000");
    f->flg_legend = 1;
    f->flg_extend = 1;
    f->gridsize[0] = 5;
    f->gridsize[1] = 5;
    f->figurergba[0] = 0.08f;
    f->figurergba[1] = 0.08f;
    f->figurergba[2] = 0.10f;
    f->figurergba[3] = 1;
    f->panergba[0] = 0.13f;
    f->panergba[1] = 0.13f;
    f->panergba[2] = 0.16f;
    f->panergba[3] = 1;
    f->legendrgba[3] = 0.6f;
    f->linewidth = 2;

    // x: automatic from the data; y: at least this range, extended to fit
    f->range[0][0] = 0;
    f->range[0][1] = 0;
    f->range[1][0] = k == 0 ? -8 : 0;
    f->range[1][1] = k == 0 ? 2 : 10;
    for (int i=0; i < acsvMAXPANE; i++) {
      f->linergb[i][0] = kPaneRgb[i][0];
      f->linergb[i][1] = kPaneRgb[i][1];
      f->linergb[i][2] = kPaneRgb[i][2];
    }
  }
}


// clear line i of every figure and name it after pane i
static void resetFigureLine(acsvViewer* v, int i) {
  for (int k=0; k < acsvNFIG; k++) {
    v->fig[k].linepnt[i] = 0;
    if (i < v->sim.npane) {
      snprintf(v->fig[k].linename[i], sizeof(v->fig[k].linename[i]), "%d %s", i + 1,
               v->sim.pane[i].name);
    } else {
      v->fig[k].linename[i][0] = 0;
    }
  }
}


static void pushPoint(mjvFigure* f, int line, float x, float y) {
  int n = f->linepnt[line];
  if (n >= acsvNFIGPNT) {
    memmove(f->linedata[line], f->linedata[line] + 2, 2*(acsvNFIGPNT - 1)*sizeof(float));
    n = acsvNFIGPNT - 1;
  }
  f->linedata[line][2*n] = x;
  f->linedata[line][2*n + 1] = y;
  f->linepnt[line] = n + 1;
}


// one point per pane and figure for the steps of this frame
static void updateFigures(acsvViewer* v) {
  // x tick labels with the decimals the time span shown needs
  double span = 0;
  for (int i=0; i < v->sim.npane; i++) {
    const mjvFigure* f = v->fig + 1;
    if (f->linepnt[i] > 1) {
      span = fmax(span, f->linedata[i][2*f->linepnt[i] - 2] - f->linedata[i][0]);
    }
  }
  for (int k=0; k < acsvNFIG; k++) {
    snprintf(v->fig[k].xformat, sizeof(v->fig[k].xformat), "%s",
             span < 0.05 ? "%.3f" : span < 0.5 ? "%.2f" : "%.1f");
  }

  for (int i=0; i < v->sim.npane; i++) {
    const acsvAccum* a = &v->sim.pane[i].frame;
    if (a->n == 0) {
      continue;
    }
    float x = (float)v->sim.time;
    if (!isnan(a->residual)) {
      // below 1e-10 is round-off: keep the axis readable
      pushPoint(v->fig + 0, i, x, (float)log10(fmax(a->residual, 1e-10)));
    }
    pushPoint(v->fig + 1, i, x, (float)(a->step_us / a->n));
  }
}


//---------------------------------- viewer --------------------------------------------------------

void acsv_initViewer(acsvViewer* v) {
  memset(v, 0, sizeof(acsvViewer));
  mjv_defaultCamera(&v->cam);
  mjv_defaultOption(&v->opt);
  mjr_defaultContext(&v->con);
  mjv_defaultPerturb(&v->sim.pert);
  v->opt.flags[mjVIS_CONTACTPOINT] = 1;
  v->fontscale = mjFONTSCALE_150;
  v->fig = calloc(acsvNFIG, sizeof(mjvFigure));
  initFigures(v);
  v->run = 1;
  v->info = 1;
  v->figures = 1;
  v->shadow = 1;
  v->reflection = 1;
  v->slowdown = 1;
  v->drag_pane = -1;
  v->click_time = -1;
  v->sync_reset = 1;
  v->lag_time = -1e9;
  v->meas_wall = -1;
}


void acsv_freeViewer(acsvViewer* v) {
  acsv_freeSim(&v->sim);
  mjr_freeContext(&v->con);
  free(v->fig);
  v->fig = NULL;
}


// after a reset or a load: clocks and figures start again
static void restart(acsvViewer* v) {
  v->fixed_target = v->sim.time;
  v->sync_reset = 1;
  v->meas_wall = -1;
  for (int i=0; i < acsvMAXPANE; i++) {
    resetFigureLine(v, i);
  }
}


int acsv_load(acsvViewer* v, const char* file, char* error, int error_sz) {
  char err[acsvNTEXT];
  int same = v->sim.m && !strcmp(file, v->sim.file);   // a reload keeps the view
  if (acsv_loadModel(&v->sim, file, err, sizeof(err))) {
    v->message[0] = 0;
    acsv_append(v->message, sizeof(v->message), "Could not load ");
    acsv_append(v->message, sizeof(v->message), file);
    acsv_append(v->message, sizeof(v->message), ":\n");
    acsv_append(v->message, sizeof(v->message), err);
    v->message_until = v->sim.m ? glfwGetTime() + 8 : -1;
    if (error) {
      snprintf(error, error_sz, "%s", err);
    }
    return -1;
  }
  mjr_makeContext(v->sim.m, &v->con, v->fontscale);
  if (!same) {
    mjv_defaultFreeCamera(v->sim.m, &v->cam);
  }
  v->message[0] = 0;
  if (v->current >= v->sim.npane) {
    v->current = 0;
  }
  restart(v);
  return 0;
}


void acsv_advance(acsvViewer* v, double now, double fixed_dt, int refresh) {
  acsvSim* sim = &v->sim;
  if (sim->m) {
    double h = sim->m->opt.timestep;
    int nstep = 0;
    if (!v->run) {
      nstep = v->nstep_request;
      v->sync_reset = 1;
    } else if (fixed_dt > 0) {
      // --frames: a fixed simulated time per frame, independent of the wall clock
      v->fixed_target += fixed_dt / v->slowdown;
      nstep = (int)floor((v->fixed_target - sim->time) / h + 0.5);
    } else {
      // real time: step until the simulation catches up with the wall clock, within a budget
      if (v->sync_reset) {
        v->sync_wall = now;
        v->sync_sim = sim->time;
        v->sync_reset = 0;
      }
      double target = v->sync_sim + (now - v->sync_wall) / v->slowdown;
      nstep = (int)floor((target - sim->time) / h);
      const double budget = 0.05;   // s of stepping per frame: keeps the window responsive
      if (sim->step_cost <= 0 && nstep > 1) {
        nstep = 1;                    // cost not measured yet: one step measures it
      } else if (nstep * sim->step_cost > budget) {
        nstep = (int)(budget / sim->step_cost);
        nstep = nstep < 1 ? 1 : nstep;
      }

      // more than 0.1 s behind (simulate's threshold): give up the backlog
      if (target - (sim->time + nstep*h) > 0.1 / v->slowdown) {
        v->sync_wall = now;
        v->sync_sim = sim->time + nstep*h;
        v->lag_time = now;
      }
    }
    v->nstep_request = 0;
    if (nstep > 0) {
      acsv_step(sim, nstep);
    } else if (!v->run && sim->pert.active) {
      acsv_forward(sim, 1);
    }
    updateFigures(v);
  }

  // displayed numbers: four times a second, so they can be read (--frames: every 15 frames, so
  // a screenshot shows the same numbers every time)
  v->nframe++;
  if (fixed_dt > 0 ? v->nframe % 15 == 0 : now - v->refresh_time >= 0.25) {
    v->refresh_time = now;
    refresh = 1;
  }
  acsv_endFrame(sim, refresh);

  // frame rate and real-time factor, every half second
  if (v->meas_wall < 0 || sim->time < v->meas_sim) {
    v->meas_wall = now;
    v->meas_sim = sim->time;
    v->meas_frames = 0;
  }
  v->meas_frames++;
  if (now - v->meas_wall >= 0.5) {
    v->fps = v->meas_frames / (now - v->meas_wall);
    v->realtime = (sim->time - v->meas_sim) / (now - v->meas_wall);
    v->meas_wall = now;
    v->meas_sim = sim->time;
    v->meas_frames = 0;
  }
}


//---------------------------------- layout --------------------------------------------------------

// columns of a grid of n panes in a w x h area that fit the largest 4:3 view; *score: its width,
// reduced by 10% if the grid has empty cells (an unbalanced look)
static int gridColumns(double* score, int n, int w, int h) {
  int cols = 1;
  *score = -1;
  for (int c=1; c <= n; c++) {
    int rows = (n + c - 1) / c;
    double s = fmin((double)w / c, (double)h / rows * 4 / 3) * (c*rows > n ? 0.9 : 1);
    if (s > *score + 1e-9) {
      *score = s;
      cols = c;
    }
  }
  return cols;
}


void acsv_layout(acsvViewer* v, int width, int height) {
  v->full = (mjrRect){0, 0, width, height};
  int status_h = v->con.charHeight + 10;
  int n = v->sim.npane > 0 ? v->sim.npane : 1;
  v->status_rect = (mjrRect){0, 0, width, status_h};

  // figures below the panes (side by side) or right of them (stacked): the larger views win
  int area_w = width, area_h = height - status_h, cols;
  if (v->figures) {
    int fig_h = (int)(0.27*area_h), fig_w = (int)(0.28*width);
    double below, right;
    int cols_below = gridColumns(&below, n, width, area_h - fig_h);
    int cols_right = gridColumns(&right, n, width - fig_w, area_h);
    for (int k=0; k < acsvNFIG; k++) {
      if (right > below) {
        int lower = status_h + k*area_h/acsvNFIG, upper = status_h + (k+1)*area_h/acsvNFIG;
        v->fig_rect[acsvNFIG - 1 - k] = (mjrRect){width - fig_w, lower, fig_w, upper - lower};
      } else {
        int left = k*width/acsvNFIG, right_edge = (k+1)*width/acsvNFIG;
        v->fig_rect[k] = (mjrRect){left, status_h, right_edge - left, fig_h};
      }
    }
    if (right > below) {
      area_w = width - fig_w;
      cols = cols_right;
    } else {
      area_h -= fig_h;
      cols = cols_below;
    }
  } else {
    double score;
    cols = gridColumns(&score, n, area_w, area_h);
  }

  // panes of equal size (the same state renders to the same pixels), row by row from the top
  // left, a small gap around each
  int rows = (n + cols - 1) / cols;
  int pane_w = area_w / cols, pane_h = area_h / rows;
  const int gap = 2;
  for (int i=0; i < v->sim.npane; i++) {
    int c = i % cols, r = i / cols;
    v->pane_rect[i] = (mjrRect){c*pane_w + gap, height - (r+1)*pane_h + gap, pane_w - 2*gap,
                                pane_h - 2*gap};
  }
}


static int paneAt(const acsvViewer* v, double x, double y) {
  for (int i=0; i < v->sim.npane; i++) {
    const mjrRect* r = v->pane_rect + i;
    if (x >= r->left && x < r->left + r->width && y >= r->bottom && y < r->bottom + r->height) {
      return i;
    }
  }
  return -1;
}


//---------------------------------- rendering -----------------------------------------------------

// rectangle outline of thickness t
static void outline(mjrRect r, int t, const float* rgb) {
  mjr_rectangle((mjrRect){r.left, r.bottom, r.width, t}, rgb[0], rgb[1], rgb[2], 1);
  mjr_rectangle((mjrRect){r.left, r.bottom + r.height - t, r.width, t}, rgb[0], rgb[1], rgb[2], 1);
  mjr_rectangle((mjrRect){r.left, r.bottom, t, r.height}, rgb[0], rgb[1], rgb[2], 1);
  mjr_rectangle((mjrRect){r.left + r.width - t, r.bottom, t, r.height}, rgb[0], rgb[1], rgb[2], 1);
}


// the pane's numbers in two overlays: solver (step time, iterations, contacts) on the left,
// physics (residual, penetration, slip) on the right
static void paneText(char title[2][128], char value[2][256], const acsvPane* p) {
  const acsvAccum* a = &p->shown;
  double n = a->n > 0 ? a->n : NAN;
  snprintf(title[0], sizeof(title[0]), "step\niterations\ncontacts");
  snprintf(title[1], sizeof(title[1]), "NCP residual\npenetration\nslip (sticking)");
  value[0][0] = value[1][0] = 0;
  appendNumber(value[0], sizeof(value[0]), "%.1f us\n", a->step_us / n);
  const char* st = p->plain ? NULL : acs_statusName(p->status);
  appendNumber(value[0], sizeof(value[0]), "%.1f", a->niter / n);
  size_t len = strlen(value[0]);
  snprintf(value[0] + len, sizeof(value[0]) - len, " %s\n", st ? st : "");
  appendNumber(value[0], sizeof(value[0]), "%.1f", a->ncon / n);
  appendNumber(value[1], sizeof(value[1]), "%.2e\n", a->residual);
  appendNumber(value[1], sizeof(value[1]), "%.2f mm\n", 1e3*a->penetration);
  appendNumber(value[1], sizeof(value[1]), "%.2f mm/s", 1e3*a->slip);
  if (p->warnings > 0) {
    len = strlen(title[0]);
    snprintf(title[0] + len, sizeof(title[0]) - len, "\nstate resets");
    len = strlen(value[0]);
    snprintf(value[0] + len, sizeof(value[0]) - len, "\n%d (bad state)", p->warnings);
  }
}


static void renderPane(acsvViewer* v, int i) {
  acsvSim* sim = &v->sim;
  acsvPane* p = sim->pane + i;
  mjrRect r = v->pane_rect[i];
  const float* rgb = kPaneRgb[i];

  // the scene, from the shared camera (a tracking camera follows the body in each pane)
  mjvCamera cam = v->cam;
  mjv_updateScene(sim->m, p->d, &v->opt, &sim->pert, &cam, mjCAT_ALL, &p->scn);
  p->scn.flags[mjRND_SHADOW] = (mjtByte)v->shadow;
  p->scn.flags[mjRND_REFLECTION] = (mjtByte)v->reflection;
  mjr_render(r, &p->scn, &v->con);

  // title bar in the pane's color
  int bar_h = v->con.charHeight + 8;
  mjrRect bar = {r.left, r.bottom + r.height - bar_h, r.width, bar_h};
  char name[128];
  snprintf(name, sizeof(name), "%d  %.*s%s", i + 1, acsvNAME, p->name,
           p->plain ? "  (mj_step)" : "");
  mjr_label(bar, mjFONT_NORMAL, name, rgb[0], rgb[1], rgb[2], 1, 0.05f, 0.05f, 0.05f, &v->con);
  mjrRect below = {r.left, r.bottom, r.width, r.height - bar_h};

  // current pane: outline
  if (i == v->current && sim->npane > 1) {
    outline(r, 3, rgb);
  }

  // error of a pane that does not step, or the numbers
  if (p->failed) {
    char text[acsvNTEXT] = "Not stepping: ", wrapped[acsvNTEXT];
    acsv_append(text, sizeof(text), p->error);
    wrapText(wrapped, sizeof(wrapped), text, r.width - 40, &v->con);
    mjr_overlay(mjFONT_NORMAL, mjGRID_TOPLEFT, below, wrapped, NULL, &v->con);
    return;
  }
  if (v->info) {
    char title[2][128], value[2][256];
    paneText(title, value, p);
    mjr_overlay(mjFONT_NORMAL, mjGRID_TOPLEFT, below, title[0], value[0], &v->con);
    mjr_overlay(mjFONT_NORMAL, mjGRID_TOPRIGHT, below, title[1], value[1], &v->con);
    if (p->plain && p->error[0]) {
      char wrapped[acsvNTEXT];
      wrapText(wrapped, sizeof(wrapped), p->error, r.width - 40, &v->con);
      mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMLEFT, below, wrapped, NULL, &v->con);
    }
  }
}


static void renderStatus(acsvViewer* v, double now) {
  acsvSim* sim = &v->sim;
  mjrRect r = v->status_rect;
  mjr_rectangle(r, 0.05f, 0.05f, 0.06f, 1);
  char left[acsvNPATH + 256], speed[32];
  if (v->slowdown == 1) {
    snprintf(speed, sizeof(speed), "1x");
  } else {
    snprintf(speed, sizeof(speed), "1/%dx", v->slowdown);
  }
  const char* file = strrchr(sim->file, '/');
  file = file ? file + 1 : sim->file;
  if (sim->m) {
    snprintf(left, sizeof(left), "%s   t = %.3f s   %s %s   (%.2fx real time%s)   %.0f fps",
             file, sim->time, v->run ? "running" : "PAUSED", speed, v->realtime,
             now - v->lag_time < 1 ? ", cannot keep up" : "", v->fps);
  } else {
    snprintf(left, sizeof(left), "no model");
  }
  mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMLEFT, r, left, NULL, &v->con);
  mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMRIGHT, r, "F1 help", NULL, &v->con);
}


void acsv_render(acsvViewer* v, double now) {
  acsvSim* sim = &v->sim;
  mjrRect full = v->full;
  mjr_rectangle(full, 0.10f, 0.10f, 0.12f, 1);

  if (sim->m) {
    for (int i=0; i < sim->npane; i++) {
      renderPane(v, i);
    }
    if (v->figures) {
      for (int k=0; k < acsvNFIG; k++) {
        mjr_figure(v->fig_rect[k], v->fig + k, &v->con);
      }
    }
  } else {
    char intro[256];
    snprintf(intro, sizeof(intro), "acs-viewer (MuJoCo %s)\nDrag and drop a model file here",
             mj_versionString());
    mjr_overlay(mjFONT_BIG, mjGRID_TOPLEFT, full, intro, NULL, &v->con);
  }
  renderStatus(v, now);

  // load error: a few seconds (for good if there is no model)
  if (v->message[0] && (v->message_until < 0 || now < v->message_until)) {
    char wrapped[acsvNTEXT];
    wrapText(wrapped, sizeof(wrapped), v->message, full.width - 60, &v->con);
    mjrRect r = {full.left, v->status_rect.height, full.width,
                 full.height - v->status_rect.height};
    mjr_overlay(mjFONT_NORMAL, mjGRID_BOTTOMLEFT, r, wrapped, NULL, &v->con);
  }

  if (v->help) {
    mjr_rectangle(full, 0, 0, 0, 0.45f);
    mjr_overlay(mjFONT_NORMAL, mjGRID_TOPLEFT, full, kHelpKeys, kHelpKeyActions, &v->con);
    mjr_overlay(mjFONT_NORMAL, mjGRID_TOPRIGHT, full, kHelpMouse, kHelpMouseActions, &v->con);
  }
}


//---------------------------------- keyboard ------------------------------------------------------

static void resetAll(acsvViewer* v) {
  acsv_reset(&v->sim);
  restart(v);
}


// next (dir 1) or previous (dir -1) solver in the current pane
static void cycleSolver(acsvViewer* v, int dir) {
  acsvSim* sim = &v->sim;
  if (v->current < 0 || v->current >= sim->npane) {
    return;
  }
  int n = acsv_solverCount();
  int k = acsv_solverIndex(sim->pane[v->current].name, NULL, 0);
  k = ((k < 0 ? 0 : k) + dir + n) % n;
  acsv_setPaneSolver(sim, v->current, acsv_solverName(k));
  resetFigureLine(v, v->current);
}


void acsv_key(acsvViewer* v, int key, int mods) {
  acsvSim* sim = &v->sim;
  const mjModel* m = sim->m;
  if (mods & GLFW_MOD_CONTROL) {
    if (key == GLFW_KEY_Q) {
      v->quit = 1;
    } else if (key == GLFW_KEY_L && m) {
      snprintf(v->load_file, sizeof(v->load_file), "%s", sim->file);
    }
    return;
  }

  switch (key) {
  case GLFW_KEY_F1:
    v->help = !v->help;
    break;
  case GLFW_KEY_F2:
    v->info = !v->info;
    break;
  case GLFW_KEY_F3:
    v->figures = !v->figures;
    break;
  case GLFW_KEY_SPACE:
    v->run = !v->run;
    sim->pert.active = 0;
    v->sync_reset = 1;
    break;
  case GLFW_KEY_RIGHT:
    if (!v->run) {
      v->nstep_request++;
    }
    break;
  case GLFW_KEY_BACKSPACE:
    resetAll(v);
    break;
  case GLFW_KEY_TAB:
    cycleSolver(v, (mods & GLFW_MOD_SHIFT) ? -1 : 1);
    break;
  case GLFW_KEY_ENTER:
  case GLFW_KEY_KP_ENTER:
    acsv_resync(sim, v->current);
    break;
  case GLFW_KEY_MINUS:
    if (v->slowdown < 128) {
      v->slowdown *= 2;
      v->sync_reset = 1;
    }
    break;
  case GLFW_KEY_EQUAL:
    if (v->slowdown > 1) {
      v->slowdown /= 2;
      v->sync_reset = 1;
    }
    break;
  case GLFW_KEY_C:
    v->opt.flags[mjVIS_CONTACTPOINT] = !v->opt.flags[mjVIS_CONTACTPOINT];
    break;
  case GLFW_KEY_F:
    v->opt.flags[mjVIS_CONTACTFORCE] = !v->opt.flags[mjVIS_CONTACTFORCE];
    break;
  case GLFW_KEY_T:
    v->opt.flags[mjVIS_TRANSPARENT] = !v->opt.flags[mjVIS_TRANSPARENT];
    break;
  case GLFW_KEY_S:
    v->shadow = !v->shadow;
    break;
  case GLFW_KEY_R:
    v->reflection = !v->reflection;
    break;
  case GLFW_KEY_LEFT_BRACKET:
  case GLFW_KEY_RIGHT_BRACKET:
    if (m && m->ncam > 0) {
      int dir = key == GLFW_KEY_RIGHT_BRACKET ? 1 : -1;
      int id = v->cam.type == mjCAMERA_FIXED ? v->cam.fixedcamid + dir : (dir > 0 ? 0 : -1);
      v->cam.type = mjCAMERA_FIXED;
      v->cam.fixedcamid = (id + m->ncam) % m->ncam;
    }
    break;
  case GLFW_KEY_ESCAPE:
    v->cam.type = mjCAMERA_FREE;
    break;
  case GLFW_KEY_PAGE_UP:
    if (m && sim->pert.select > 0) {
      sim->pert.select = m->body_parentid[sim->pert.select];
      sim->pert.skinselect = -1;
      sim->pert.flexselect = -1;
      if (sim->pert.select <= 0) {
        sim->pert.active = 0;
      }
    }
    break;
  default:
    if (key >= GLFW_KEY_1 && key <= GLFW_KEY_6 && key - GLFW_KEY_1 < sim->npane) {
      v->current = key - GLFW_KEY_1;
    }
    break;
  }
}


//---------------------------------- mouse ---------------------------------------------------------

// double-click in pane i: select a body (left), center the view (right), track (ctrl+right)
static void selectAt(acsvViewer* v, int i, int button, double x, double y) {
  acsvSim* sim = &v->sim;
  const mjModel* m = sim->m;
  acsvPane* p = sim->pane + i;
  mjrRect r = v->pane_rect[i];
  mjtNum selpnt[3];
  int geom = -1, flex = -1, skin = -1;
  int body = mjv_select(m, p->d, &v->opt, (mjtNum)r.width / r.height,
                        (x - r.left) / r.width, (y - r.bottom) / r.height, &p->scn, selpnt,
                        &geom, &flex, &skin);
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    if (body >= 0) {
      mjtNum tmp[3];
      sim->pert.select = body;
      sim->pert.flexselect = flex;
      sim->pert.skinselect = skin;
      mju_sub3(tmp, selpnt, p->d->xpos + 3*body);
      mju_mulMatTVec(sim->pert.localpos, p->d->xmat + 9*body, tmp, 3, 3);
    } else {
      sim->pert.select = 0;
      sim->pert.flexselect = -1;
      sim->pert.skinselect = -1;
    }
  } else if (button == GLFW_MOUSE_BUTTON_RIGHT && body >= 0) {
    mju_copy3(v->cam.lookat, selpnt);
    if (v->mod_control && body > 0) {
      v->cam.type = mjCAMERA_TRACKING;
      v->cam.trackbodyid = body;
      v->cam.fixedcamid = -1;
    }
  }
  sim->pert.active = 0;
}


void acsv_mouseButton(acsvViewer* v, int button, int act, int mods, double x, double y,
                      double now) {
  acsvSim* sim = &v->sim;
  int* state = button == GLFW_MOUSE_BUTTON_LEFT ? &v->button_left :
               button == GLFW_MOUSE_BUTTON_RIGHT ? &v->button_right :
               button == GLFW_MOUSE_BUTTON_MIDDLE ? &v->button_middle : NULL;
  if (state) {
    *state = act;
  }
  v->mod_shift = (mods & GLFW_MOD_SHIFT) != 0;
  v->mod_control = (mods & GLFW_MOD_CONTROL) != 0;
  v->lastx = x;
  v->lasty = y;

  // release: stop perturbing
  if (!act) {
    sim->pert.active = 0;
    if (!v->button_left && !v->button_right && !v->button_middle) {
      v->drag_pane = -1;
    }
    return;
  }

  int i = paneAt(v, x, y);
  v->drag_pane = i;
  if (i < 0 || !sim->m) {
    return;
  }
  v->current = i;

  // perturbation: ctrl + right translates, ctrl + left rotates the selected body
  int perturb = 0;
  if (v->mod_control && sim->pert.select > 0) {
    perturb = button == GLFW_MOUSE_BUTTON_RIGHT ? mjPERT_TRANSLATE :
              button == GLFW_MOUSE_BUTTON_LEFT ? mjPERT_ROTATE : 0;
    if (perturb && !sim->pert.active) {
      mjv_initPerturb(sim->m, sim->pane[i].d, &sim->pane[i].scn, &sim->pert);
    }
  }
  sim->pert.active = perturb;

  // double click: a second press of the same button within 0.3 s and a few pixels
  int dbl = button == v->click_button && now - v->click_time < 0.3 &&
            fabs(x - v->click_x) < 5 && fabs(y - v->click_y) < 5;
  v->click_time = dbl ? -1 : now;
  v->click_button = button;
  v->click_x = x;
  v->click_y = y;
  if (dbl) {
    selectAt(v, i, button, x, y);
  }
}


void acsv_mouseMove(acsvViewer* v, double x, double y) {
  acsvSim* sim = &v->sim;
  double dx = x - v->lastx, dy = y - v->lasty;
  v->lastx = x;
  v->lasty = y;
  if ((!v->button_left && !v->button_right && !v->button_middle) || v->drag_pane < 0 ||
      !sim->m) {
    return;
  }

  mjtMouse action;
  if (v->button_right) {
    action = v->mod_shift ? mjMOUSE_MOVE_H : mjMOUSE_MOVE_V;
  } else if (v->button_left) {
    action = v->mod_shift ? mjMOUSE_ROTATE_H : mjMOUSE_ROTATE_V;
  } else {
    action = mjMOUSE_ZOOM;
  }

  // relative to the pane's height; y is up here, MuJoCo's convention is down
  acsvPane* p = sim->pane + v->drag_pane;
  double h = v->pane_rect[v->drag_pane].height;
  if (sim->pert.active) {
    mjv_movePerturb(sim->m, p->d, action, dx / h, -dy / h, &p->scn, &sim->pert);
  } else {
    mjv_moveCamera(sim->m, action, dx / h, -dy / h, &v->cam);
  }
}


void acsv_scroll(acsvViewer* v, double dy) {
  if (v->sim.m) {
    // one wheel click zooms like a vertical drag over 5% of the height (MuJoCo's samples)
    mjv_moveCamera(v->sim.m, mjMOUSE_ZOOM, 0, -0.05*dy, &v->cam);
  }
}
