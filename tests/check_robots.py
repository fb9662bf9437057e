# Copyright 2026 The acs authors.
#
# Real robots that no one here wrote: every solver on every MJCF scene shipped in the dm-control
# and gymnasium-robotics wheels (tests/robot_scenes.txt; the set-up downloads the wheels into a
# cache folder outside the repository and extracts them), run with acs-bench. Each acs run must
#   - end "ok": a finite state throughout, no diverged step (statuses are honest: a run that
#     reports ok has nonfinite false and no diverged step; one that diverged says so);
#   - or be refused with a message naming the reason (never a silent error);
#   - not explode: penetration at most 3 times MuJoCo's own on the scene plus 2.5 cm (MuJoCo's soft
#     contacts penetrate a few mm; an exploding solver reaches tens of cm; with RK4 a hard contact's
#     impulse is averaged over the Runge-Kutta stages, so a body landing within one step goes
#     up to 2 cm deep before the next steps push it out: Gymnasium's Ant, 1.8 cm), and at most 4
#     times MuJoCo's contact count plus 10 (bodies sinking through each other multiply contacts).
#
# Known failures (KNOWN below, each with its cause) are held to the honesty checks only, and listed.
# With 300 steps or more, the runs in CONVERGED below must also converge on at least a given share
# of their steps (the solvers' convergence on the scenes that showed its defects).
#
#   check_robots.py ACS_BENCH ROBOTS_DIR SCENE_LIST [--steps N] [--scenes a,b,...] [--jobs J]
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

SOLVERS = "mujoco,native,pgs,admm,raisim,lcp-pgs,ccp-pgs,ccp-admm,lagged,similar"
HARD = ["pgs", "admm", "raisim", "lcp-pgs", "ccp-pgs", "ccp-admm"]

# (scene, solvers, cause): runs whose physics checks are known to fail
KNOWN = [
    ("walkers/assets/humanoid_CMU_V20", HARD,
     "a walker asset, not a scene: its pelvis, hip and thigh geoms overlap by up to 9 cm in the "
     "default pose, through rows that barely move any dof (the contact point 1 cm from the hip); "
     "dm_control excludes these pairs when it builds a task. Hard contact asks for a separation the "
     "joints can only give at hundreds of rad/s, and the runs diverge; MuJoCo's soft contact "
     "tolerates the overlap"),
] + [
    (scene, ["lagged", "similar"],
     "Gymnasium's environment puts the mocap below the table top (4.5 cm in push; grip site + "
     "(-0.498, 0.005, -0.431)) and relies on MuJoCo's soft weld to leave the gripper on the "
     "table; lagged and similar hold the weld exactly and their compliant contact yields, so the "
     "fingers sink 8 cm into the table (the hard-contact solvers keep them on it)")
    for scene in ("fetch/push_env.xml", "fetch/slide_env.xml")
]


# (scene, solver, {MuJoCo version: share}): the share of steps converged that a run of at least 300
# steps from the model's initial state must reach. ADMM with one scale per contact block, before
# its rows' scaling split forces from torques, against after (300 steps): MuJoCo 4.0: dog admm
# 0.24 -> 0.48, Shadow hand admm 0.63 -> 0.89 and ccp-admm 0.75 -> 0.99, Adroit pen 0.62 -> 0.98
# and 0.61 -> 0.99; MuJoCo 3.12 (other contacts and collisions): 0.22 -> 0.30, 0.74 -> 0.80 and
# 0.74 -> 0.90 or more, 0.12 -> 0.25 and 0.12 -> 0.20
CONVERGED = [
    # the dog's share is one draw too: with a joint started at 0 to 9e-6 rad/s (10 runs, MuJoCo
    # 4.0, 300 steps from the start) admm converged on 34-52% of the steps (mean 44%) with the
    # recovery requests made consistent from three contacts, 37-50% (mean 45%) from two
    ("suite/dog.xml", "admm", {"4.0": 0.30, "3.12": 0.26}),
    # the hand's admm share is one draw of a wide distribution: over tolerances 1e-6 to 1.22e-6
    # (12 runs, MuJoCo 4.0) it spans 69-90% (mean 80%; one scale per block: 62-79%, mean 69%),
    # and a change of the cone projection at the 1e-10 level moved the draw at 1e-6 from 89% to
    # 69%; 3.12: 69-82% over 6. The floor is below both spans
    ("hand/manipulate_block.xml", "admm", {"4.0": 0.65, "3.12": 0.65}),
    ("hand/manipulate_block.xml", "ccp-admm", {"4.0": 0.90, "3.12": 0.85}),
    # the hand's pgs: 78% of the steps converged on 4.0 before 61ec717 (the subspace step dropped a
    # friction angle whose pivot was its own term alone: the block spinning on two close
    # contacts), 95% after (3.12: 99%); one draw, as admm's above, the floor below both
    ("hand/manipulate_block.xml", "pgs", {"4.0": 0.85, "3.12": 0.85}),
    # the pen's admm share on 3.12 is a draw too: over tolerances 1e-6 to 1.2e-6 (6 runs, 300
    # steps) 20-24% measuring the residual on every iteration, 15-28% on every 2nd (the default);
    # on 4.0 97-99% both ways
    ("adroit_hand/adroit_pen.xml", "admm", {"4.0": 0.90, "3.12": 0.12}),
    ("adroit_hand/adroit_pen.xml", "ccp-admm", {"4.0": 0.90, "3.12": 0.16}),
    # Fetch push and slide as Gymnasium simulates them (scripts/fetch_envs.py): 100% measured on
    # both versions (the bare push.xml, a degenerate state, 0%). The gripper's island is solved
    # without its stabilization there; since 8996520 (a probe of the stabilized problem, the
    # diverged island restarted from its warm start) the Gauss-Seidel solvers converge too: pgs
    # and raisim 100%, ccp-pgs 99%, lcp-pgs 93-95% on both versions (before: 94%, 94%, 0%, 0%)
    ("fetch/push_env.xml", "admm", {"4.0": 0.95, "3.12": 0.95}),
    ("fetch/push_env.xml", "ccp-admm", {"4.0": 0.95, "3.12": 0.95}),
    ("fetch/slide_env.xml", "admm", {"4.0": 0.95, "3.12": 0.95}),
    ("fetch/slide_env.xml", "ccp-admm", {"4.0": 0.95, "3.12": 0.95}),
    ("fetch/push_env.xml", "pgs", {"4.0": 0.97, "3.12": 0.97}),
    ("fetch/slide_env.xml", "pgs", {"4.0": 0.97, "3.12": 0.97}),
    ("fetch/push_env.xml", "raisim", {"4.0": 0.97, "3.12": 0.97}),
    ("fetch/slide_env.xml", "raisim", {"4.0": 0.97, "3.12": 0.97}),
    ("fetch/push_env.xml", "ccp-pgs", {"4.0": 0.95, "3.12": 0.95}),
    ("fetch/slide_env.xml", "ccp-pgs", {"4.0": 0.95, "3.12": 0.95}),
    ("fetch/push_env.xml", "lcp-pgs", {"4.0": 0.85, "3.12": 0.85}),
    ("fetch/slide_env.xml", "lcp-pgs", {"4.0": 0.85, "3.12": 0.85}),
    # the Franka kitchen's microwave door (two hinges coupled by a joint equality, each with a
    # friction loss and a limit at its bound): pgs stopped at the limit on every step after its
    # 27th, raisim on 17%, until a held equality left moving took the null vector's move to a
    # friction loss's bound (2026-11-29): 100% on 4.0 and 3.12 since
    ("kitchen_franka/kitchen_assets/kitchen_env_model.xml", "pgs", {"4.0": 0.97, "3.12": 0.97}),
    ("kitchen_franka/kitchen_assets/kitchen_env_model.xml", "raisim",
     {"4.0": 0.97, "3.12": 0.97}),
]

# (scene, solver, perturbation, repeats, {MuJoCo version: share}): as CONVERGED, over the evidence
# suite's draws (acs-bench --perturb A --repeat R, 300 steps after 100). The Shadow hand's pgs:
# 93.9% at f07602d, 82.7% with the subspace step's Newton turns unbounded (one draw stopped at the
# limit on 208 of its 300 steps), 99.8% with kAngleTurn (3.12: 100%). The dog's pgs: 92.3% before
# its restart from zero forces (a36d5db), 93.8% with it (3.12: 90.7%), 97.3% with its default
# budget of 300 sweeps (b9a1130; 3.12: 97.8%); admm 91.6% with 100 iterations, 98.3% with 300
# (3.12: 98.1%). The dog's floors are issue 13's bar (95% of the steps converged within the
# default budget)
PERTURBED = [
    ("hand/manipulate_block.xml", "pgs", 1e-4, 4, {"4.0": 0.97, "3.12": 0.97}),
    ("suite/dog.xml", "pgs", 1e-4, 4, {"4.0": 0.95, "3.12": 0.95}),
    ("suite/dog.xml", "admm", 1e-4, 4, {"4.0": 0.95, "3.12": 0.95}),
]


def known(scene, solver):
    for pattern, solvers, cause in KNOWN:
        if pattern in scene and solver in solvers:
            return cause
    return None

parser = argparse.ArgumentParser()
parser.add_argument("bench")
parser.add_argument("robots")
parser.add_argument("scene_list")
parser.add_argument("--steps", type=int, default=300)
parser.add_argument("--scenes", default="", help="comma-separated substrings: only these scenes")
parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
args = parser.parse_args()

scenes = [l.strip() for l in open(args.scene_list) if l.strip() and not l.startswith("#")]
if args.scenes:
    keep = args.scenes.split(",")
    scenes = [s for s in scenes if any(k in s for k in keep)]
if not os.path.isdir(args.robots):
    print("check failed: robot models not found in %s (scripts/setup.sh downloads them)"
          % args.robots)
    sys.exit(1)


def run(scene):
    """Run the bench on one scene; return (scene, runs or None, message, MuJoCo version)."""
    path = os.path.join(args.robots, scene)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        proc = subprocess.run([args.bench, path, "--solvers", SOLVERS, "--steps", str(args.steps),
                               "--warmup", "0",
                               "--quiet", "--json", out], capture_output=True, text=True)
        if proc.returncode not in (0, 1) or not os.path.exists(out):
            return scene, None, "exit %d: %s" % (proc.returncode, proc.stderr[-400:]), ""
        result = json.load(open(out))
        return scene, result["runs"], "", result["mujoco_version"]


failures = []
with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
    for scene, runs, message, version in pool.map(run, scenes):
        if runs is None:
            failures.append("%s: %s" % (scene, message))
            print("%-70s FAILED (%s)" % (scene, message[:80]))
            continue
        byname = {r["solver"]: r for r in runs}
        ref = byname.get("mujoco", {})
        pen_ref = ref.get("penetration_max") or 0
        con_ref = (ref.get("contacts") or {}).get("max") or 0
        notes = []
        for r in runs:
            name, status = r["solver"], r["status"]
            what = "%s %s" % (scene, name)
            if status == "error":
                if not r["error"]:
                    failures.append(what + ": error without a message")
                notes.append("%s refused (%s)" % (name, (r["error"] or "")[:50]))
                continue
            # an honest status: ok means finite throughout with no diverged step
            honest = (status == "ok") == (not r["nonfinite"] and r["diverged_steps"] == 0)
            if not honest:
                failures.append(what + ": status %s but nonfinite %s, %d diverged steps"
                                % (status, r["nonfinite"], r["diverged_steps"]))
            if known(scene, name):
                notes.append("%s known: %s" % (name, status))
                continue
            if status != "ok":
                failures.append(what + ": %s (%s)" % (status, r["error"]))
                continue
            if name in ("mujoco", "native"):
                continue
            pen = r["penetration_max"]
            if pen is not None and pen > 3 * pen_ref + 0.025:
                failures.append(what + ": penetration %.3g m, MuJoCo %.3g m" % (pen, pen_ref))
            con = r["contacts"]["max"]
            if con > 4 * con_ref + 10:
                failures.append(what + ": %d contacts, MuJoCo %d" % (con, con_ref))
            for pattern, solver, shares in CONVERGED:
                conv = r["steps_status"]["converged"]
                share = shares.get(".".join(version.split(".")[:2]), 0)
                if args.steps >= 300 and pattern in scene and solver == name and conv < share:
                    failures.append(what + ": converged on %.0f%% of the steps, at least %.0f%% "
                                    "expected" % (100 * conv, 100 * share))
        bad = [f for f in failures if f.startswith(scene + " ")]
        print("%-70s %s %s" % (scene, "FAILED" if bad else "ok", "; ".join(notes)[:200]))

# the perturbed draws (with 300 steps or more)
for pattern, solver, perturb, repeat, shares in PERTURBED:
    for scene in [s for s in scenes if pattern in s] if args.steps >= 300 else []:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.json")
            proc = subprocess.run([args.bench, os.path.join(args.robots, scene), "--solvers",
                                   solver, "--steps", "300", "--warmup", "100", "--repeat",
                                   str(repeat), "--perturb", repr(perturb), "--quiet", "--json",
                                   out], capture_output=True, text=True)
            if proc.returncode not in (0, 1) or not os.path.exists(out):
                failures.append("%s %s perturbed: exit %d" % (scene, solver, proc.returncode))
                continue
            result = json.load(open(out))
        conv = result["runs"][0]["steps_status"]["converged"]
        share = shares.get(".".join(result["mujoco_version"].split(".")[:2]), 0)
        print("%-70s %s converged on %.1f%% of %d draws' steps (at least %.0f%%)"
              % (scene, solver, 100 * conv, repeat, 100 * share))
        if conv < share:
            failures.append("%s %s perturbed by %g: converged on %.1f%% of the steps, at least "
                            "%.0f%% expected" % (scene, solver, perturb, 100 * conv, 100 * share))

for f in failures:
    print("check failed:", f)
for pattern, solvers, cause in KNOWN:
    print("known failure: %s with %s: %s" % (pattern, ", ".join(solvers), cause))
print("robots: %d scenes, %d failures" % (len(scenes), len(failures)))
sys.exit(1 if failures else 0)
