// Copyright 2026 The acs authors.
//
// Per-block convex potentials of the Irrotational Contact Fields models (Castro, Han,
// Masterjohn, "Irrotational Contact Fields"), normal row first.
//
// Hunt & Crossley (eq. 22): f_n = k (-phi)_+ (1 - d v_n)_+ with phi = phi0 + h v_n, so the
// discrete normal impulse is n(v) = h k (-phi0 - h v)_+ (1 - d v)_+ and its antiderivative
//   N(v) = h k [-u (phi0 + h u / 2) + d u^2 / 2 (phi0 + 2 h u / 3)],  u = min(v, vhat),
//   vhat = min(-phi0 / h, 1 / d)   (the velocity where contact breaks; N is constant beyond).
// Regularized friction (eq. 10) with the soft norm |x|_s = sqrt(|x|^2 + eps^2) - eps of the
// scaled tangential velocity x = S v_t (S = diag(mu_k / mu): anisotropic friction on a round
// cone), soft direction t = x / r, r = |x|_s + eps:
//   Lagged  (Sec. V-B): l = -N(v_n) + mu g0 |x|_s with g0 = h f_n(phi0, v_n0) of the start of
//           the step: separable, gamma_t = -mu g0 S t, G_tt = mu g0 S (I - t t') S / r.
//   Similar (Sec. V-C): l = -N(z), z = v_n - mu |x|_s: gamma_n = n(z), gamma_t = -mu n(z) S t,
//           G = -n'(z) u u' + mu n(z) diag(0, S (I - t t') S / r),  u = (1, -mu S t).
// Torsional and rolling rows (condim 4, 6; not in the paper) take lagged friction per row,
// l = mu_j g0 |w|_s with tolerance eps / mu_j (the angular slip of v_s at radius mu_j).
// Other rows are near-rigid SAP-style potentials in y = -(v - vhat) / R: bilateral 1/2 R y^2,
// unilateral 1/2 R max(0, y)^2, friction loss (box of bound fmax) its Huber function.

#include "icf.h"

#include <math.h>

#include <mujoco/mujoco.h>

mjtNum acsu_hcImpulse(mjtNum v, mjtNum h, mjtNum k, mjtNum d, mjtNum phi0) {
  mjtNum x = -phi0 - h*v, g = 1 - d*v;
  return (x > 0 && g > 0) ? h*k*x*g : 0;
}


mjtNum acsu_hcDerivative(mjtNum v, mjtNum h, mjtNum k, mjtNum d, mjtNum phi0) {
  mjtNum x = -phi0 - h*v, g = 1 - d*v;
  return (x > 0 && g > 0) ? -h*k*(h*g + d*x) : 0;
}


mjtNum acsu_hcPotential(mjtNum v, mjtNum h, mjtNum k, mjtNum d, mjtNum phi0) {
  mjtNum vhat = -phi0 / h;
  if (d > 0 && 1/d < vhat) {
    vhat = 1/d;
  }
  mjtNum u = v < vhat ? v : vhat;
  return h*k*(-u*(phi0 + 0.5*h*u) + d*u*u*0.5*(phi0 + (2.0/3.0)*h*u));
}


// contact potential (lagged or similar); G may be NULL
static mjtNum contactPotential(mjtNum* gamma, mjtNum* G, const acsICFBlock* c, const mjtNum* v) {
  int dim = c->dim;
  mjtNum h = c->h, k = c->k, d = c->d, phi0 = c->phi0, mu = c->mu;
  mjtNum cost = 0;
  if (G) {
    mju_zero(G, dim*dim);
  }

  // scaled tangential velocity and its soft norm
  mjtNum x[2] = {0, 0}, t[2] = {0, 0}, r = c->eps, vsoft = 0;
  if (dim >= 3) {
    x[0] = c->scale[0] * v[1];
    x[1] = c->scale[1] * v[2];
    r = mju_sqrt(x[0]*x[0] + x[1]*x[1] + c->eps*c->eps);
    vsoft = r - c->eps;
    t[0] = x[0] / r;
    t[1] = x[1] / r;
  }

  if (c->kind == acsICF_LAGGED || dim == 1) {
    // separable: implicit normal, friction bounded by the start-of-step impulse
    gamma[0] = acsu_hcImpulse(v[0], h, k, d, phi0);
    cost = -acsu_hcPotential(v[0], h, k, d, phi0);
    if (G) {
      G[0] = -acsu_hcDerivative(v[0], h, k, d, phi0);
    }
    if (dim >= 3) {
      mjtNum a = mu * c->gn0;
      cost += a * vsoft;
      for (int i=0; i < 2; i++) {
        gamma[1+i] = -a * c->scale[i] * t[i];
      }
      if (G) {
        for (int i=0; i < 2; i++) {
          for (int j=0; j < 2; j++) {
            mjtNum P = (i == j) - t[i]*t[j];
            G[(1+i)*dim + 1+j] = a * c->scale[i] * P * c->scale[j] / r;
          }
        }
      }
    }
  } else {
    // similar: the H&C potential of z = v_n - mu |x|_s
    mjtNum z = v[0] - mu*vsoft;
    mjtNum n = acsu_hcImpulse(z, h, k, d, phi0), np = acsu_hcDerivative(z, h, k, d, phi0);
    cost = -acsu_hcPotential(z, h, k, d, phi0);
    gamma[0] = n;
    gamma[1] = -mu * n * c->scale[0] * t[0];
    gamma[2] = -mu * n * c->scale[1] * t[1];
    if (G) {
      mjtNum u[3] = {1, -mu * c->scale[0] * t[0], -mu * c->scale[1] * t[1]};
      for (int i=0; i < 3; i++) {
        for (int j=0; j < 3; j++) {
          G[i*dim+j] = -np * u[i] * u[j];
        }
      }
      for (int i=0; i < 2; i++) {
        for (int j=0; j < 2; j++) {
          mjtNum P = (i == j) - t[i]*t[j];
          G[(1+i)*dim + 1+j] += mu * n * c->scale[i] * P * c->scale[j] / r;
        }
      }
    }
  }

  // torsional and rolling rows: lagged friction per row
  for (int j=3; j < dim; j++) {
    mjtNum muj = c->mu_rot[j-3];
    gamma[j] = 0;
    if (!(muj > 0) || !(c->gn0 > 0)) {
      continue;
    }
    mjtNum e = c->eps / muj, rj = mju_sqrt(v[j]*v[j] + e*e);
    cost += muj * c->gn0 * (rj - e);
    gamma[j] = -muj * c->gn0 * v[j] / rj;
    if (G) {
      G[j*dim+j] = muj * c->gn0 * e*e / (rj*rj*rj);
    }
  }
  return cost;
}


mjtNum acsu_icfPotential(mjtNum* gamma, mjtNum* G, const acsICFBlock* c, const mjtNum* v) {
  if (c->kind == acsICF_LAGGED || c->kind == acsICF_SIMILAR) {
    return contactPotential(gamma, G, c, v);
  }

  // per-row near-rigid potentials
  int dim = c->dim;
  mjtNum cost = 0;
  if (G) {
    mju_zero(G, dim*dim);
  }
  for (int i=0; i < dim; i++) {
    mjtNum R = c->R[i], y = -(v[i] - c->vhat[i]) / R, g = 0, curv = 1/R;
    switch ((acstICFKind) c->kind) {
    case acsICF_BILATERAL:
      g = y;
      cost += 0.5 * R * y*y;
      break;
    case acsICF_LIMIT:
      g = y > 0 ? y : 0;
      cost += 0.5 * R * g*g;
      curv = y > 0 ? curv : 0;
      break;
    case acsICF_BOX:
      if (mju_abs(y) <= c->fmax) {
        g = y;
        cost += 0.5 * R * y*y;
      } else {
        g = y > 0 ? c->fmax : -c->fmax;
        cost += c->fmax * mju_abs(v[i] - c->vhat[i]) - 0.5 * R * c->fmax*c->fmax;
        curv = 0;
      }
      break;
    default:
      break;
    }
    gamma[i] = g;
    if (G) {
      G[i*dim+i] = curv;
    }
  }
  return cost;
}
