# Copyright 2026 The acs authors.
#
# Gymnasium-Robotics' Fetch scenes as its environments simulate them. The MJCF in the wheel
# (fetch/push.xml, slide.xml, pick_and_place.xml) loads in a state no environment ever steps: its
# weld holds the gripper in the pose of qpos0 against a mocap body at the origin, and the torso
# lift joint starts 3.8 cm below its lower limit, so the hard weld, the hard limit and the base's
# floor contacts fight (pgs answers with forces of 3.7e8 N). Each environment first runs its
# _env_setup (gymnasium_robotics 1.4.2, envs/fetch/fetch_env.py, MujocoFetchEnv): it sets the
# initial_qpos of its task (envs/fetch/<task>.py), resets the mocap weld's relative pose to the
# identity (utils/mujoco_utils.py, reset_mocap_welds: eq_data[:7] = 0 0 0 0 0 0 1), moves the
# mocap to the grip site plus (-0.498, 0.005, -0.431 + gripper_extra_height) with orientation
# (1, 0, 1, 0), and takes 10 x 20 steps with MuJoCo's solver.
#
# This script does the same with the MuJoCo Python bindings, then writes <task>_env.xml beside the
# original (meshes, textures and the robot resolve alike): the task's MJCF, its weld given that
# relative pose (shared_env.xml: shared.xml with relpose="0 0 0 1 0 0 0", which compiles to the
# same eq_data) and a keyframe "env_setup" holding the state reached in full precision (acs-bench
# and the tests start from keyframe 0). The files are edits of the originals' text, not MjSpec's
# writer, whose output MuJoCo 3.12 cannot read; the check below reloads each file and compares.
#
#   fetch_envs.py ROBOTS_DIR
import os
import sys

import mujoco
import numpy as np

# task: (initial_qpos, gripper_extra_height) of gymnasium_robotics 1.4.2 envs/fetch/<task>.py
TASKS = {
    "push": ({"robot0:slide0": 0.405, "robot0:slide1": 0.48, "robot0:slide2": 0.0,
              "object0:joint": [1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0]}, 0.0),
    "slide": ({"robot0:slide0": 0.05, "robot0:slide1": 0.48, "robot0:slide2": 0.0,
               "object0:joint": [1.7, 1.1, 0.41, 1.0, 0.0, 0.0, 0.0]}, -0.02),
    "pick_and_place": ({"robot0:slide0": 0.405, "robot0:slide1": 0.48, "robot0:slide2": 0.0,
                        "object0:joint": [1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0]}, 0.2),
}
WELD_POSE = [0, 0, 0, 0, 0, 0, 1]      # reset_mocap_welds: anchor 0, relative position 0, quat 1
STATE = ("qpos", "qvel", "act", "ctrl", "mocap_pos", "mocap_quat")   # what the keyframe holds


def env_setup(path, qpos, extra):
    """The model and state of MujocoFetchEnv._env_setup."""
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    for name, value in qpos.items():
        adr = m.joint(name).qposadr[0]
        value = np.atleast_1d(value)
        d.qpos[adr:adr + len(value)] = value
    for i in range(m.neq):
        if m.eq_type[i] == mujoco.mjtEq.mjEQ_WELD:
            m.eq_data[i, :7] = WELD_POSE
    mujoco.mj_forward(m, d)
    mocap = m.body("robot0:mocap").mocapid[0]
    d.mocap_pos[mocap] = np.array([-0.498, 0.005, -0.431 + extra]) + d.site("robot0:grip").xpos
    d.mocap_quat[mocap] = [1.0, 0.0, 1.0, 0.0]
    for _ in range(10):
        mujoco.mj_step(m, d, nstep=20)
    return m, d


def replace_once(text, old, new, name):
    assert text.count(old) == 1, "%s: expected one '%s'" % (name, old)
    return text.replace(old, new)


def numbers(values):
    return " ".join(repr(float(v)) for v in np.ravel(values))


def write(folder, task):
    qpos, extra = TASKS[task]
    path = os.path.join(folder, task + ".xml")
    m, d = env_setup(path, qpos, extra)
    with open(os.path.join(folder, "shared.xml")) as f:
        shared = replace_once(f.read(), '<weld body1="robot0:mocap" body2="robot0:gripper_link"',
                              '<weld body1="robot0:mocap" body2="robot0:gripper_link" '
                              'relpose="0 0 0 1 0 0 0"', "shared.xml")
    with open(os.path.join(folder, "shared_env.xml"), "w") as f:
        f.write(shared)
    key = ('\t<keyframe>\n\t\t<key name="env_setup" time="%s" qpos="%s" qvel="%s" act="%s" '
           'ctrl="%s" mpos="%s" mquat="%s"></key>\n\t</keyframe>\n</mujoco>'
           % (repr(d.time), numbers(d.qpos), numbers(d.qvel), numbers(d.act), numbers(d.ctrl),
              numbers(d.mocap_pos), numbers(d.mocap_quat)))
    with open(path) as f:
        text = replace_once(f.read(), '<include file="shared.xml">',
                            '<include file="shared_env.xml">', path)
    text = replace_once(text, "</mujoco>", key, path)
    out = os.path.join(folder, task + "_env.xml")
    with open(out, "w") as f:
        f.write(text)

    # the file reloads to the environment's model and state (mocap quaternions normalized, as
    # MuJoCo uses them), and steps alike
    m2 = mujoco.MjModel.from_xml_path(out)
    d2 = mujoco.MjData(m2)
    mujoco.mj_resetDataKeyframe(m2, d2, 0)
    assert (m2.nq, m2.nv, m2.ngeom, m2.neq, m2.nkey) == (m.nq, m.nv, m.ngeom, m.neq, 1), out
    assert np.array_equal(m2.eq_data[:, :11], m.eq_data[:, :11]), out
    quat = d.mocap_quat / np.linalg.norm(d.mocap_quat, axis=1, keepdims=True)
    for field in STATE:
        want = quat if field == "mocap_quat" else getattr(d, field)
        err = np.max(np.abs(getattr(d2, field) - want), initial=0)
        assert err <= 1e-15, (out, field, err)
    return out


def main():
    folder = os.path.join(sys.argv[1], "gymnasium_robotics", "envs", "assets", "fetch")
    for task in TASKS:
        print("fetch_envs.py: wrote", write(folder, task))


if __name__ == "__main__":
    main()
