// Copyright 2026 The acs authors.
//
// acs-viewer: several contact solvers on one scene, side by side, in lock-step. Uses only the
// public API of acs (acs/acs.h) and MuJoCo's mjv_/mjr_ visualization.
//
//   viewer_sim.c   panes: one mjData and one acs context per solver, lock-step stepping,
//                  reset, re-sync, model loading
//   viewer_ui.c    layout, rendering (scenes, overlays, figures, help), keys and mouse
//   png.c          PNG screenshots (--screenshot) through libpng
//   main.c         command line, GLFW window and callbacks, main loop

#ifndef ACS_VIEWER_VIEWER_H_
#define ACS_VIEWER_VIEWER_H_

#include <mujoco/mujoco.h>
#include <acs/acs.h>

#define acsvMAXPANE   6           // panes in the grid
#define acsvNAME      32          // solver name buffer
#define acsvNPATH     1024        // file name buffer
#define acsvNTEXT     2048        // message buffers (MuJoCo's load errors)
#define acsvMAXGEOM   10000       // geoms in a pane's abstract scene
#define acsvNFIGPNT   600         // points per figure line (< mjMAXLINEPNT)
#define acsvNFIG      2           // figures: residual, step time


//---------------------------------- simulation ----------------------------------------------------

typedef struct acsvAccum_ {       // statistics of the steps since the last reset of the accumulator
  int    n;                       // steps accumulated
  double step_us;                 // sum of step wall times (us), metrics excluded
  double niter;                   // sum of solver iterations
  double ncon;                    // sum of active contacts
  double residual;                // max NCP residual (N m/s^2)
  double penetration;             // max penetration depth (m)
  double slip;                    // max tangential speed of sticking contacts (m/s)
} acsvAccum;

typedef struct acsvPane_ {        // one solver on its own copy of the state
  char        name[acsvNAME];     // "mujoco" (plain mj_step) or an acs solver name
  int         plain;              // 1: plain mj_step; ctx (if any) only evaluates the metrics
  acsContext* ctx;                // solver context, or the evaluator of a plain pane; NULL: none
  mjData*     d;                  // the pane's state
  mjvScene    scn;                // the pane's abstract scene
  int         failed;             // 1: the pane does not step (error says why)
  char        error[acsNERROR];   // why the pane failed, or why a plain pane has no metrics
  int         warnings;           // MuJoCo warnings seen (a bad state makes MuJoCo reset it)
  int         status;             // acstStatus of the last step (plain pane: acsSTATUS_NATIVE)
  acsvAccum   frame;              // steps of the current frame (figures)
  acsvAccum   window;             // steps since the last refresh of the displayed numbers
  acsvAccum   shown;              // displayed numbers
} acsvPane;

typedef struct acsvSim_ {         // the model and the panes stepping in lock-step
  mjModel*    m;                  // NULL: no model loaded
  char        file[acsvNPATH];    // model file
  int         npane;              // number of panes
  acsvPane    pane[acsvMAXPANE];  // panes, in the order of --solvers
  mjtNum*     ctrl;               // controls applied to every pane                   (nu x 1)
  mjtNum*     state;              // buffer for re-sync (mjSTATE_INTEGRATION)
  mjvPerturb  pert;               // mouse perturbation applied to every pane
  double      time;               // simulated time since the last reset (s): lock-step clock
  double      wall_step;          // wall time spent stepping, all panes (s)
  double      step_cost;          // smoothed wall time of one lock-step (all panes) (s)
} acsvSim;

// Number of solver names: "mujoco" then every acs solver.
int acsv_solverCount(void);

// Solver name i (0: "mujoco", then acs_solverName(i-1)), or NULL if out of range.
const char* acsv_solverName(int i);

// Index of a solver name, or -1 with a message listing the valid names.
int acsv_solverIndex(const char* name, char* error, int error_sz);

// Set the solver names of the panes (before or after loading a model).
void acsv_setSolvers(acsvSim* sim, const char names[][acsvNAME], int n);

// Load a model (XML, or MJB by extension). On success replace the model and rebuild every pane
// from its initial state; return 0. On failure keep the old model and return -1 with MuJoCo's
// error.
int acsv_loadModel(acsvSim* sim, const char* file, char* error, int error_sz);

// Reset every pane to keyframe 0 (or the model's initial state) and forget warm starts.
void acsv_reset(acsvSim* sim);

// Advance every running pane by nstep steps with the same controls and perturbation.
void acsv_step(acsvSim* sim, int nstep);

// Recompute every pane's derived quantities (paused: after a pose perturbation).
void acsv_forward(acsvSim* sim, int flg_perturb);

// Copy the state of pane src to every other pane and forget warm starts.
void acsv_resync(acsvSim* sim, int src);

// Change the solver of pane i, keeping its state.
void acsv_setPaneSolver(acsvSim* sim, int i, const char* name);

// Move the statistics of the frame into the figures' accumulators; refresh: also the display.
void acsv_endFrame(acsvSim* sim, int refresh);

// Free the model and every pane.
void acsv_freeSim(acsvSim* sim);

// Append src to the string in dst (dst_sz bytes), truncating.
void acsv_append(char* dst, int dst_sz, const char* src);


//---------------------------------- viewer --------------------------------------------------------

typedef struct acsvViewer_ {      // simulation, camera, rendering and interaction state
  acsvSim     sim;                // model and panes
  mjvCamera   cam;                // camera shared by every pane
  mjvOption   opt;                // visualization options shared by every pane
  mjrContext  con;                // MuJoCo's rendering context
  int         fontscale;          // mjtFontScale
  mjvFigure*  fig;                // residual and step-time figures (acsvNFIG; heap: large)

  // toggles and modes
  int         run;                // 1: simulating
  int         help;               // F1: help overlay
  int         info;               // F2: per-pane numbers
  int         figures;            // F3: figures
  int         shadow;             // S: shadows
  int         reflection;         // R: reflections
  int         current;            // current pane (keys act on it)
  int         slowdown;           // simulation runs at 1/slowdown of real time
  int         nstep_request;      // single steps requested while paused
  int         quit;               // quit requested
  char        load_file[acsvNPATH];   // model to load (drag and drop, reload); "" if none
  char        message[acsvNTEXT];     // message shown in the window (load errors)
  double      message_until;          // wall time when the message disappears; < 0: forever

  // layout in framebuffer pixels (origin bottom left)
  mjrRect     full;               // whole window
  mjrRect     pane_rect[acsvMAXPANE];
  mjrRect     fig_rect[acsvNFIG];
  mjrRect     status_rect;        // status line at the bottom

  // mouse
  int         button_left, button_right, button_middle;
  int         mod_shift, mod_control;
  double      lastx, lasty;       // last cursor position (framebuffer pixels, y up)
  int         drag_pane;          // pane where the drag started; -1: none
  double      click_time;         // time of the last press
  int         click_button;       // button of the last press
  double      click_x, click_y;   // position of the last press

  // clocks
  int         sync_reset;         // re-anchor the simulation clock to the wall clock
  double      sync_wall;          // wall time of the anchor (s)
  double      sync_sim;           // simulated time of the anchor (s)
  double      fixed_target;       // --frames mode: simulated time to reach (s)
  double      lag_time;           // wall time when the simulation last fell behind (s)
  double      refresh_time;       // wall time of the last refresh of the displayed numbers (s)
  int         nframe;             // frames advanced
  double      meas_wall;          // start of the current fps measurement (s)
  double      meas_sim;           // simulated time at its start (s)
  int         meas_frames;        // frames since its start
  double      fps;                // measured frames per second
  double      realtime;           // measured simulated time / wall time
} acsvViewer;

// Set defaults (no model; GL context not needed).
void acsv_initViewer(acsvViewer* v);

// Load a model into the viewer: panes, rendering context, camera; keep running on failure.
// Return 0 on success, -1 (message shown in the window and in error) on failure.
int acsv_load(acsvViewer* v, const char* file, char* error, int error_sz);

// Advance the panes for one frame and update the figures: fixed_dt > 0 advances the simulation
// by exactly fixed_dt (divided by the slow-down), otherwise it follows the wall clock now.
// refresh: update the displayed numbers now (otherwise 4 times a second, every 15 frames with
// fixed_dt).
void acsv_advance(acsvViewer* v, double now, double fixed_dt, int refresh);

// Compute the layout for a framebuffer of the given size.
void acsv_layout(acsvViewer* v, int width, int height);

// Render every pane, the figures, the status line and the overlays.
void acsv_render(acsvViewer* v, double now);

// Keyboard (GLFW key code and modifier bits).
void acsv_key(acsvViewer* v, int key, int mods);

// Mouse button press (act 1) or release (act 0) at (x, y) in framebuffer pixels, y up.
void acsv_mouseButton(acsvViewer* v, int button, int act, int mods, double x, double y,
                      double now);

// Mouse motion to (x, y) in framebuffer pixels, y up.
void acsv_mouseMove(acsvViewer* v, double x, double y);

// Mouse wheel.
void acsv_scroll(acsvViewer* v, double dy);

// Free the rendering context, figures and simulation.
void acsv_freeViewer(acsvViewer* v);


//---------------------------------- PNG -----------------------------------------------------------

// Write an 8-bit RGB image (rows top to bottom, 3 bytes per pixel) to a PNG file. Return 0 on
// success, -1 with a message.
int acsv_writePng(const char* path, const unsigned char* rgb, int width, int height,
                  char* error, int error_sz);

#endif  // ACS_VIEWER_VIEWER_H_
