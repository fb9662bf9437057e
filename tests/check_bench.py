# Copyright 2026 The acs authors.
#
# Tests for bench/bench.c: runs acs-bench and checks its JSON and CSV against the documented
# schema and against physics (native and mujoco take bit-identical steps).
import csv
import json
import subprocess
import sys
import tempfile
import os

bench, model, version, shared = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("check failed:", what)
        failures += 1


with tempfile.TemporaryDirectory() as tmp:
    js, cs = os.path.join(tmp, "out.json"), os.path.join(tmp, "out.csv")
    proc = subprocess.run([bench, model, "--solvers", "mujoco,native,nope,pgs", "--steps", "200",
                           "--warmup", "20", "--set", "acs_tolerance=1e-8", "--json", js,
                           "--csv", cs], capture_output=True, text=True)
    # one failing solver: reported, the others run, exit status 1
    check(proc.returncode == 1, "exit status 1 with a failing solver, got %d" % proc.returncode)
    check("nope" in proc.stdout and "unknown solver 'nope'" in proc.stdout, "table reports nope")
    out = json.load(open(js))
    for key in ["model", "mujoco_version", "timestep", "steps", "nv", "runs"]:
        check(key in out, "top-level key " + key)
    check(out["steps"] == 200 and out["mujoco_version"] == version, "steps and version")
    runs = {r["solver"]: r for r in out["runs"]}
    check(list(runs) == ["mujoco", "native", "nope", "pgs"], "runs in the given order")
    check(runs["nope"]["status"] == "error" and "allowed: mujoco, native, pgs"
          in runs["nope"]["error"], "error run")
    for name in ["mujoco", "native", "pgs"]:
        r = runs[name]
        check(r["status"] == "ok" and r["error"] is None, name + " ok")
        for key in ["step_us", "solve_us"]:
            check(set(r[key]) == {"median", "mean", "p90"} and r[key]["median"] > 0,
                  name + " " + key)
        for key in ["iterations", "contacts", "ncp_residual", "signorini", "coulomb", "mdp"]:
            check(set(r[key]) == {"mean", "max"} and r[key]["max"] >= r[key]["mean"],
                  name + " " + key)
        check(set(r["energy"]) == {"initial", "final"}, name + " energy")
        check(len(r["qpos_initial"]) == len(r["qpos_final"]) == 7, name + " qpos arrays (one free joint)")
        check(r["nonfinite"] is False and r["peak_rss_kb"] > 0, name + " nonfinite, rss")
        shares = r["steps_status"]
        check(set(shares) == {"converged", "maxiter", "stalled", "empty", "native", "diverged"}
              and abs(sum(shares.values()) - 1) < 1e-12 and r["diverged_steps"] == 0,
              name + " share of steps per status")
        check(r["contacts"]["mean"] == 4, name + " box rests on 4 contacts")
        check(r["penetration_max"] is not None, name + " penetration")
    # the same steps: plain mj_step and acs native are bit-identical
    check(runs["mujoco"]["qpos_final"] == runs["native"]["qpos_final"], "native == mujoco")
    check(runs["mujoco"]["ncp_residual"] == runs["native"]["ncp_residual"], "same metrics")
    # --set reaches the acs solver: residual below the requested 1e-8, every step converged
    check(runs["pgs"]["ncp_residual"]["max"] <= 1e-8, "pgs residual <= --set tolerance")
    check(runs["pgs"]["steps_status"]["converged"] == 1, "pgs converged on every step")
    check(runs["native"]["steps_status"]["native"] == 1, "native steps are MuJoCo's")
    rows = list(csv.DictReader(open(cs)))
    check([r["solver"] for r in rows] == ["mujoco", "native", "nope", "pgs"], "csv rows")
    check(rows[2]["status"] == "error" and rows[3]["status"] == "ok", "csv status")

    # an honest status: a scene that blows up (gravity 1e12 m/s^2: MuJoCo's bad-acceleration
    # check fires) is "diverged" in the JSON, the CSV and the table, with the reason, for plain
    # mj_step and for an acs solver alike
    xml = os.path.join(tmp, "blowup.xml")
    open(xml, "w").write("<mujoco><option gravity='0 0 -1e12'/><worldbody><geom type='plane' "
                         "size='1 1 .1'/><body pos='0 0 1'><freejoint/><geom size='.1'/></body>"
                         "</worldbody></mujoco>")
    proc = subprocess.run([bench, xml, "--solvers", "mujoco,pgs", "--steps", "20", "--json", js,
                           "--csv", cs], capture_output=True, text=True)
    runs = json.load(open(js))["runs"]
    rows = list(csv.DictReader(open(cs)))
    for r, row in zip(runs, rows):
        check(r["status"] == "diverged" and r["nonfinite"] and r["diverged_steps"] > 0 and
              r["error"] and row["status"] == "diverged", r["solver"] + " diverged, honestly")
    check(proc.stdout.count("diverged") >= 4, "the table says diverged")

    # a solver's result does not depend on its place in --solvers (22 humanoids: many trees)
    finals = []
    for order in ["pgs,raisim,admm,lagged", "lagged,admm,raisim,pgs"]:
        subprocess.run([bench, os.path.join(shared, "22_humanoids.xml"), "--solvers", order,
                        "--steps", "10", "--quiet", "--json", js], capture_output=True)
        finals.append({r["solver"]: r["qpos_final"] for r in json.load(open(js))["runs"]})
    for name in finals[0]:
        check(finals[0][name] == finals[1][name], name + ": same qpos_final in either order")

    # rounds and repeats change when runs take their steps, never the steps: the same states
    # with rounds of 7 steps, 2 repeats, as with one round; x mujoco is exactly 1 for mujoco and
    # the ratio of the mean step times for the others
    finals = []
    for extra in [["--chunk", "7", "--repeat", "2"], ["--chunk", "1000"]]:
        subprocess.run([bench, os.path.join(shared, "humanoid.xml"), "--solvers",
                        "mujoco,admm,pgs", "--steps", "60", "--warmup", "5", "--quiet",
                        "--json", js] + extra, capture_output=True)
        out = json.load(open(js))
        finals.append({r["solver"]: r["qpos_final"] for r in out["runs"]})
    check(finals[0] == finals[1], "same qpos_final whatever the rounds and repeats")
    check(out["chunk"] == 1000 and out["repeat"] == 1 and out["warmup"] == 5, "chunk, repeat")
    runs = {r["solver"]: r for r in out["runs"]}
    check(runs["mujoco"]["x_mujoco"]["median"] == 1, "mujoco is 1 x mujoco")
    ratio = runs["admm"]["step_us"]["mean"] / runs["mujoco"]["step_us"]["mean"]
    check(abs(runs["admm"]["x_mujoco"]["median"] / ratio - 1) < 1e-6, "x mujoco: ratio of means")
    check(runs["admm"]["step_us_mean_range"][0] <= runs["admm"]["step_us"]["mean"]
          <= runs["admm"]["step_us_mean_range"][1], "mean within its range over repeats")

    # --perturb: each repeat's initial speeds raised by its own draw (the same draws on every
    # call: the same states), the repeats pooled into the shares of steps per status and the
    # iteration counts; without it the repeats are one trajectory, pooled to the same figures
    def bench_runs(extra):
        out_js = os.path.join(tmp, "perturb%d.json" % len(os.listdir(tmp)))
        proc = subprocess.run([bench, os.path.join(shared, "humanoid.xml"), "--solvers",
                               "mujoco,pgs", "--steps", "40", "--warmup", "5", "--quiet",
                               "--json", out_js] + extra, capture_output=True, text=True)
        check(proc.returncode == 0, "runs with " + " ".join(extra) + ": " + proc.stderr)
        out = json.load(open(out_js))
        return out, {r["solver"]: r for r in out["runs"]}
    out, plain = bench_runs([])
    _, plain3 = bench_runs(["--repeat", "3"])
    out_p, pert = bench_runs(["--perturb", "0.05"])
    _, pert_again = bench_runs(["--perturb", "0.05"])
    _, pert2 = bench_runs(["--perturb", "0.05", "--repeat", "2"])
    check(out["perturb"] == 0 and out_p["perturb"] == 0.05, "perturb in the JSON")
    check(pert["pgs"]["qpos_initial"] == plain["pgs"]["qpos_initial"] and
          pert["pgs"]["qpos_final"] != plain["pgs"]["qpos_final"] and
          pert["mujoco"]["qpos_final"] != plain["mujoco"]["qpos_final"], "--perturb moves the runs")
    check(pert["pgs"]["qpos_final"] == pert_again["pgs"]["qpos_final"], "--perturb's draws repeat")
    check(plain3["pgs"]["iterations"] == plain["pgs"]["iterations"] and
          plain3["pgs"]["steps_status"] == plain["pgs"]["steps_status"],
          "repeats of one trajectory pool to its figures")
    check(pert2["pgs"]["iterations"]["mean"] != pert["pgs"]["iterations"]["mean"],
          "perturbed repeats pooled")
    for bad in ["-1", "nan", "inf", "1e-3x", ""]:
        proc = subprocess.run([bench, model, "--perturb", bad], capture_output=True, text=True)
        check(proc.returncode == 2 and "--perturb" in proc.stderr, "bad --perturb refused: " + bad)

    # CSV: RFC 4180 (an error message with quotes and commas stays one field)
    proc = subprocess.run([bench, model, "--solvers", 'pgs,no"pe', "--steps", "2", "--csv", cs],
                          capture_output=True, text=True)
    rows = list(csv.reader(open(cs)))
    check(len(rows) == 3 and len(rows[2]) == len(rows[0]) and 'no"pe' in rows[2][-1],
          "csv quoting")

    # --threads: every run at every thread count, each simulation on its own thread; the runs'
    # simulations end bit-identical across threads and counts (else the run fails: state shared
    # between contexts); mujoco is 1 x mujoco, the first count's scaling 1
    proc = subprocess.run([bench, os.path.join(shared, "humanoid.xml"), "--threads", "1,2",
                           "--solvers", "mujoco,pgs,admm,lagged", "--steps", "30", "--warmup",
                           "5", "--chunk", "7", "--csv", cs], capture_output=True, text=True)
    check(proc.returncode == 0 and "vs_mujoco" in proc.stdout, "--threads runs: " + proc.stderr)
    rows = list(csv.DictReader(open(cs)))
    check([(r["solver"], r["threads"]) for r in rows] ==
          [(s, t) for s in ["mujoco", "pgs", "admm", "lagged"] for t in ["1", "2"]],
          "--threads csv rows")
    for r in rows:
        check(float(r["steps_per_s"]) > 0 and float(r["step_us"]) > 0, "--threads rates")
        check(r["threads"] != "1" or float(r["scaling"]) == 1, "first count's scaling is 1")
        check(r["solver"] != "mujoco" or float(r["x_mujoco"]) == float(r["vs_mujoco"]) == 1,
              "mujoco is 1 x mujoco")
    conv = {(r["solver"], r["threads"]): r["converged"] for r in rows}
    check(conv["pgs", "1"] == conv["pgs", "2"] and conv["mujoco", "1"] == "",
          "the same steps at every thread count")
    for bad in [["--threads", "2,1"], ["--threads", "0"], ["--threads", "1,x"],
                ["--threads", "1,2", "--json", js]]:
        proc = subprocess.run([bench, model] + bad, capture_output=True, text=True)
        check(proc.returncode == 2 and "--threads" in proc.stderr, "refused: " + " ".join(bad))

    # a bad --set is an input error
    proc = subprocess.run([bench, model, "--set", "acs_tolerance=-1"], capture_output=True,
                          text=True)
    check(proc.returncode == 2 and "acs_tolerance" in proc.stderr, "bad --set refused")

print("bench checks:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
