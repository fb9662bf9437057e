# Copyright 2026 The acs authors.
#
# acs-bench runs every solver on every scene of test_models/ and the shared MuJoCo models without
# crashing: each run ends "ok" or "error" with a message (a refused model), and an "ok" run keeps a
# finite state.
import glob
import json
import os
import subprocess
import sys
import tempfile

bench, test_models, shared = sys.argv[1], sys.argv[2], sys.argv[3]
solvers = "mujoco,native,pgs,admm,raisim,lcp-pgs,ccp-pgs,ccp-admm,lagged,similar"
models = sorted(glob.glob(os.path.join(test_models, "*.xml")))
models += sorted(glob.glob(os.path.join(shared, "*.xml")))
failures = 0
if len(models) < 15:
    print("check failed: expected the test models and the shared models, found", len(models))
    failures += 1

with tempfile.TemporaryDirectory() as tmp:
    for model in models:
        out = os.path.join(tmp, "out.json")
        proc = subprocess.run([bench, model, "--solvers", solvers, "--steps", "20", "--warmup", "0",
                               "--quiet",
                               "--json", out], capture_output=True, text=True)
        if proc.returncode not in (0, 1) or not os.path.exists(out):
            print("check failed: %s: exit %d %s" % (model, proc.returncode, proc.stderr[-500:]))
            failures += 1
            continue
        runs = json.load(open(out))["runs"]
        line = []
        for r in runs:
            if r["status"] == "ok":
                if r["nonfinite"]:
                    print("check failed: %s %s: state became non-finite" % (model, r["solver"]))
                    failures += 1
                line.append(r["solver"])
            elif r["status"] == "error" and r["error"]:
                line.append("%s (error: %s)" % (r["solver"], r["error"][:60]))
            else:
                print("check failed: %s %s: bad status" % (model, r["solver"]))
                failures += 1
        if len(runs) != 10:
            print("check failed: %s: %d runs" % (model, len(runs)))
            failures += 1
        print(os.path.basename(model) + ": " + ", ".join(line))

print("bench on all models:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
