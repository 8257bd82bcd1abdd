"""pytorch-kinematics 0.10.0 (UM-ARM-Lab): differentiable robot kinematics. Chains are parsed
from small robot descriptions written inline (no download), then used as the README and the
tests (``tests/test_kinematics.py``, ``test_jacobian.py``, ``test_transform.py``,
``test_rotation_conversions.py``, ``test_inverse_kinematics.py``, ``test_ik_joint_limits.py``,
``test_serial_chain_creation.py`` at tag v0.10.0) use them. Robots (inline strings):

- ``_PLANAR``: the tests' 2-link revolute URDF (``test_fkik``);
- ``_KUKA``: the tests' ``kuka_iiwa.urdf`` kinematics (7 revolute joints, origins, rpy, limits;
  visuals / inertials dropped);
- ``_PRISMATIC``: the tests' ``prismatic_robot.urdf`` (3 prismatic joints);
- ``_Y_ARM``: the tests' ``simple_y_arm.urdf`` (a y-axis joint then a fixed joint);
- ``_GRIPPER``: a small tree in the spirit of the README's widowx (arm, wrist, a fixed
  ``ee_arm_link``, two prismatic fingers and a fixed ``ee_gripper_link``: three leaves);
- ``_SDF_ARM``: the tests' ``simple_arm.sdf`` kinematics (poses, revolute / prismatic joints,
  the ``world`` joint is commented out there, so left out).

Models (each a tiny ``torch.nn.Module`` holding the chain / solver, whose forward makes the
library calls; batches of 4-8 configurations):

- forward kinematics: serial planar batch (``get_matrix``); Kuka serial end-effector pose as the
  README (``get_matrix`` -> pos + ``matrix_to_quaternion``), ``end_only=False`` (dict of all
  links), the unbatched 1-D configuration, float64 chain; Kuka tree chain
  (``build_chain_from_urdf``: dict of all frames); ``frame_indices`` from
  ``get_frame_indices``; ``transform_points`` of the EE origin (the tests' ``get_pt``); the
  gripper tree (full FK; a ``SerialChain`` to a leaf; a sub-chain with a different root); SDF
  tree with a dict of batched joint values (all joints; and all at ``0.0`` floats updated with two
  0-d tensors, as ``test_fk_mjcf`` builds it: 0.10.0 refuses the README's partial dict with
  "Missing values for the following joints", and a dict mixing floats with batched tensors
  fails in ``expand``); SDF serial
  (``build_serial_chain_from_sdf``); prismatic serial; ``forward_kinematics_tensor`` on the
  Kuka tree, on the SDF tree and with ``analytical_grad=False``; the README's compiled-FK use
  (``forward_kinematics_tensor`` then ``frame_to_idx``);
- Jacobian: ``jacobian`` (Kuka; ``locations=`` batched; ``ret_eef_pose=True``; SDF sub-chain via
  ``pk.SerialChain(chain, "arm_wrist_roll")``; prismatic; y-axis arm; gripper leaf);
  ``jacobian_tensor``;
- transforms: ``Transform3d(rot=R, pos=t)`` ``transform_points`` / ``transform_normals`` /
  ``inverse``; ``Translate`` / ``Rotate`` / ``RotateAxisAngle`` / ``Scale`` and
  ``Transform3d().rotate_axis_angle(...)`` composed (``compose``, ``stack``); ``Transform3d``
  from Euler angles and from a quaternion; ``compose`` of ``Transform3d(pos=list)`` with an
  axis-angle rotation (``test_compose``); ``Transform3d.sample_perturbations`` (of a single
  transform: the method squeezes a batch of one only, a batch of 2 fails eagerly);
- rotation conversions: matrix <-> quaternion <-> axis-angle round trip
  (``test_compile_rotation_conversions``); Euler ``"XYZ"`` both ways; quaternion multiply /
  invert / standardize / apply / ``quaternion_angular_distance`` / ``wxyz_to_xyzw``;
  ``quaternion_slerp``; ``axis_and_angle_to_matrix_33`` / ``axis_angle_to_matrix`` /
  ``quaternion_from_euler``; ``matrix_to_pos_rot`` / ``pos_rot_to_matrix`` and the 9-D
  ``matrix44_to_se3_9d`` / ``se3_9d_to_matrix44`` and 6-D rotation; ``so3_exp_map`` /
  ``so3_log_map`` / ``so3_relative_angle`` / ``so3_rotation_angle``;
- inverse kinematics: ``PseudoInverseIK(...).solve(goal_tf)`` on Kuka goals made by FK of random
  in-limit configurations, as ``test_jacobian_follower`` (``early_stopping_any_converged``,
  ``early_stopping_no_improvement="all"``, ``lr=0.2``; 10 iterations, 4 retries);
  ``PseudoInverseIKWithSVD``; with ``BacktrackingLineSearch``; ``retry_configs`` +
  ``enforce_joint_limits=False`` (``test_ik_in_place_no_err``); ``clamp_to_limits=True``
  with ``config_sampling_method="gaussian"``; the fused step ``_ik_step_kernel`` on its own
  (``test_compile_ik_step``).

Eval: the library's outputs (matrices of the ``Transform3d`` results, dicts of them, tensors,
the ``IKSolution``'s tensors). Train: joint values / rotations come in with
``requires_grad=True`` (so FK takes the analytical-backward ``autograd.Function`` path, as in a
training / trajectory-optimisation step) and the forward returns a loss: the README's
``pos.norm()`` for FK, the tests' ``T[..., :3, 3].sum() + diag`` loss for
``forward_kinematics_tensor``, ``J.norm()`` for the Jacobian, the sum of means of float outputs
(``mean_loss_module``) elsewhere; IK (no gradient through the solver) returns the mean
final error. Inputs the library writes in place stay without gradients in train:
``quaternion_slerp`` flips ``q2`` in place (so ``t`` carries the gradient there) and
``quaternion_from_euler`` divides its ``unbind`` views in place (its Euler input is plain data).
Measured first as it came, before any rule looked at it.

    pip install --no-deps pytorch-kinematics==0.10.0
    pip install --no-deps lxml==6.2.1 arm-pytorch-utilities==0.5.0 pytorch-seed==0.2.0

(numpy, scipy, PyYAML, absl-py and matplotlib, the other run-time imports, are already
installed; ``arm_pytorch_utilities`` (imported by ``transforms/transform3d.py``) needs numpy,
scipy and ``pytorch_seed``.)

Nothing stubbed. ``mujoco`` (a compiled simulator, not pure Python) is not installed:
``pytorch_kinematics/__init__`` imports ``mjcf`` inside ``try/except ImportError``, so MJCF
parsing (``build_chain_from_mjcf``, ``build_serial_chain_from_mjcf``: the README's ant /
humanoid examples) is left out; the same FK / Jacobian code runs on the URDF / SDF chains.
Left out also: ``torch.vmap(torch.func.jacrev(get_pt))`` over FK (test_jacobian's functorch
comparison, inside a bare ``try/except: pass`` there): it fails eagerly in 0.10.0 (vmap: in-place
arithmetic on an unbatched tensor inside FK); ``PseudoInverseIK(use_compile=True)`` (it calls ``torch.compile`` itself),
``print_tree`` / joint-limit getters (Python bookkeeping at build time, used here to build
the inputs), IK ``debug=True`` (matplotlib plots).
"""

PACKAGE = "pytorch_kinematics"
DISTRIBUTION = "pytorch-kinematics"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_B = 4

_PLANAR = (
    '<robot name="test_robot">'
    '<link name="link1" />'
    '<link name="link2" />'
    '<link name="link3" />'
    '<joint name="joint1" type="revolute">'
    '<origin xyz="1.0 0.0 0.0"/>'
    '<parent link="link1"/>'
    '<child link="link2"/>'
    '</joint>'
    '<joint name="joint2" type="revolute">'
    '<origin xyz="1.0 0.0 0.0"/>'
    '<parent link="link2"/>'
    '<child link="link3"/>'
    '</joint>'
    '</robot>'
)


def _kuka_urdf():
    joints = [
        ("0 0 0", "0 0 0.1575", 2.96705972839),
        ("1.57079632679 0 3.14159265359", "0 0 0.2025", 2.09439510239),
        ("1.57079632679 0 3.14159265359", "0 0.2045 0", 2.96705972839),
        ("1.57079632679 0 0", "0 0 0.2155", 2.09439510239),
        ("-1.57079632679 3.14159265359 0", "0 0.1845 0", 2.96705972839),
        ("1.57079632679 0 0", "0 0 0.2155", 2.09439510239),
        ("-1.57079632679 3.14159265359 0", "0 0.081 0", 3.05432619099),
    ]
    parts = ['<?xml version="1.0"?>\n<robot name="lbr_iiwa">']
    parts += [f'<link name="lbr_iiwa_link_{i}"/>' for i in range(8)]
    for i, (rpy, xyz, lim) in enumerate(joints, start=1):
        parts.append(
            f'<joint name="lbr_iiwa_joint_{i}" type="revolute">'
            f'<parent link="lbr_iiwa_link_{i - 1}"/><child link="lbr_iiwa_link_{i}"/>'
            f'<origin rpy="{rpy}" xyz="{xyz}"/><axis xyz="0 0 1"/>'
            f'<limit effort="300" lower="{-lim}" upper="{lim}" velocity="10"/></joint>')
    parts.append("</robot>")
    return "\n".join(parts)


_KUKA = _kuka_urdf()

_PRISMATIC = """<robot name="prismatic_robot">
<link name="link1" /><link name="link2" /><link name="link3" /><link name="link4" />
<joint name="joint1" type="prismatic">
    <origin xyz="0.0 0.0 1.0"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>
    <parent link="link1"/><child link="link2"/>
</joint>
<joint name="joint2" type="prismatic">
    <origin xyz="0.0 0.0 0.0" rpy="1.57079632679 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>
    <parent link="link2"/><child link="link3"/>
</joint>
<joint name="joint3" type="prismatic">
    <origin xyz="0.0 0.0 0.0" rpy="0 1.57079632679 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>
    <parent link="link3"/><child link="link4"/>
</joint>
</robot>"""

_Y_ARM = """<?xml version="1.0"?>
<robot name="simple">
    <link name="base_link"></link>
    <link name="arm"><visual><geometry><box size="0.6 0.1 0.2"/></geometry></visual></link>
    <link name="eef"><visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual></link>
    <joint name="base_to_arm" type="revolute">
        <parent link="base_link"/><child link="arm"/><axis xyz="0 1 0"/>
        <limit lower="0.0" upper="0.548" effort="1000.0" velocity="0.5"/>
    </joint>
    <joint name="arm_to_eef" type="fixed">
        <parent link="arm"/><child link="eef"/><origin xyz="0.3 0.0 0.0"/>
    </joint>
</robot>"""

_GRIPPER = """<?xml version="1.0"?>
<robot name="tiny_gripper_arm">
  <link name="base_link"/><link name="shoulder_link"/><link name="upper_arm_link"/>
  <link name="forearm_link"/><link name="wrist_link"/><link name="gripper_link"/>
  <link name="ee_arm_link"/><link name="gripper_prop_link"/><link name="fingers_link"/>
  <link name="left_finger_link"/><link name="right_finger_link"/><link name="ee_gripper_link"/>
  <joint name="waist" type="revolute"><parent link="base_link"/><child link="shoulder_link"/>
    <origin xyz="0 0 0.072" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3.14" upper="3.14" effort="10" velocity="3"/></joint>
  <joint name="shoulder" type="revolute"><parent link="shoulder_link"/><child link="upper_arm_link"/>
    <origin xyz="0 0 0.039"/><axis xyz="0 1 0"/>
    <limit lower="-1.88" upper="1.99" effort="20" velocity="3"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper_arm_link"/><child link="forearm_link"/>
    <origin xyz="0.05 0 0.25"/><axis xyz="0 1 0"/>
    <limit lower="-2.15" upper="1.61" effort="15" velocity="3"/></joint>
  <joint name="wrist_angle" type="revolute"><parent link="forearm_link"/><child link="wrist_link"/>
    <origin xyz="0.25 0 0" rpy="0.1 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1.74" upper="2.14" effort="5" velocity="3"/></joint>
  <joint name="wrist_rotate" type="revolute"><parent link="wrist_link"/><child link="gripper_link"/>
    <origin xyz="0.065 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-3.14" upper="3.14" effort="1" velocity="3"/></joint>
  <joint name="ee_arm" type="fixed"><parent link="gripper_link"/><child link="ee_arm_link"/>
    <origin xyz="0.043 0 0"/></joint>
  <joint name="gripper" type="continuous"><parent link="ee_arm_link"/><child link="gripper_prop_link"/>
    <origin xyz="0.0055 0 0"/><axis xyz="1 0 0"/></joint>
  <joint name="gripper_bar" type="fixed"><parent link="ee_arm_link"/><child link="fingers_link"/>
    <origin xyz="0.066 0 0"/></joint>
  <joint name="left_finger" type="prismatic"><parent link="fingers_link"/><child link="left_finger_link"/>
    <origin xyz="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="0.015" upper="0.037" effort="5" velocity="1"/></joint>
  <joint name="right_finger" type="prismatic"><parent link="fingers_link"/><child link="right_finger_link"/>
    <origin xyz="0 0 0"/><axis xyz="0 -1 0"/>
    <limit lower="-0.037" upper="-0.015" effort="5" velocity="1"/></joint>
  <joint name="ee_gripper" type="fixed"><parent link="fingers_link"/><child link="ee_gripper_link"/>
    <origin xyz="0.027575 0 0"/></joint>
</robot>"""

_INERTIAL = ("<inertial><inertia><ixx>1</ixx><ixy>0</ixy><ixz>0</ixz><iyy>1</iyy><iyz>0</iyz><izz>1</izz>"
             "</inertia><mass>1.0</mass></inertial>")

_SDF_ARM = """<?xml version="1.0" ?>
<sdf version="1.5">
  <model name="simple_arm">
    <link name="arm_base">INERTIAL
      <visual name="arm_base_geom_visual"><pose>0 0 0.05 0 0 0</pose>
        <geometry><box><size>1.0 1.0 0.1</size></box></geometry></visual>
    </link>
    <link name="arm_shoulder_pan"><pose>0 0 1.1 0 0 0</pose>INERTIAL</link>
    <link name="arm_elbow_pan"><pose>1.05 0 1.1 0 0 0</pose>INERTIAL</link>
    <link name="arm_wrist_lift"><pose>1.6 0 1.05 0 0 0</pose>INERTIAL</link>
    <link name="arm_wrist_roll"><pose>1.6 0 1.0 0 0 0</pose>INERTIAL</link>
    <joint name="arm_shoulder_pan_joint" type="revolute">
      <parent>arm_base</parent><child>arm_shoulder_pan</child>
      <axis><xyz>0 0 1</xyz></axis>
    </joint>
    <joint name="arm_elbow_pan_joint" type="revolute">
      <parent>arm_shoulder_pan</parent><child>arm_elbow_pan</child>
      <axis><xyz>0 0 1</xyz></axis>
    </joint>
    <joint name="arm_wrist_lift_joint" type="prismatic">
      <parent>arm_elbow_pan</parent><child>arm_wrist_lift</child>
      <axis><limit><lower>-0.8</lower><upper>0.1</upper></limit><xyz>0 0 1</xyz></axis>
    </joint>
    <joint name="arm_wrist_roll_joint" type="revolute">
      <parent>arm_wrist_lift</parent><child>arm_wrist_roll</child>
      <axis><limit><lower>-2.999994</lower><upper>2.999994</upper></limit><xyz>0 0 1</xyz></axis>
    </joint>
  </model>
</sdf>""".replace("INERTIAL", _INERTIAL)


# --- helpers -------------------------------------------------------------------------------------

def _q(n, mode, batch=_B, dtype=None, scale=1.0):
    import torch

    q = (torch.rand(batch, n) * 2 - 1) * scale if batch else (torch.rand(n) * 2 - 1) * scale
    if dtype is not None:
        q = q.to(dtype)
    return q.requires_grad_(True) if mode == "train" else q


def _grad(x, mode):
    return x.requires_grad_(True) if mode == "train" else x


def _kuka_serial(dtype=None):
    import pytorch_kinematics as pk

    chain = pk.build_serial_chain_from_urdf(_KUKA, "lbr_iiwa_link_7")
    return chain.to(dtype=dtype) if dtype is not None else chain


def _module(fwd, mode, loss=None, **state):
    """A tiny module holding the chain / solver (``state``); ``fwd(self, *inputs)`` makes the
    library calls. Train: ``loss(self, out)`` if given, else the sum of means of the outputs."""
    import torch

    class Use(torch.nn.Module):
        def __init__(self):
            super().__init__()
            for k, v in state.items():
                object.__setattr__(self, k, v)

        def forward(self, *args):
            return fwd(self, *args)

    net = Use()
    if mode != "train":
        return net
    if loss is None:
        return mean_loss_module()(net)

    class Loss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, *args):
            return loss(self.net(*args))

    return Loss()


def _pos_norm(m):
    return m[:, :3, 3].norm()


def _fk_tensor_loss(T):  # the tests' compute_loss
    return T[..., :3, 3].sum() + T[..., :3, :3].diagonal(dim1=-2, dim2=-1).sum()


def _matrices(ret):
    return {k: v.get_matrix() for k, v in ret.items()}


# --- forward kinematics --------------------------------------------------------------------------

def _fk_planar(mode):
    import pytorch_kinematics as pk

    chain = pk.build_serial_chain_from_urdf(_PLANAR, "link3")
    net = _module(lambda s, th: s.chain.forward_kinematics(th).get_matrix(), mode, _pos_norm, chain=chain)
    return net, (_q(2, mode, 8),), {}


def _fk_kuka_pose(mode):
    import pytorch_kinematics as pk

    def fwd(s, th):  # README: pos + unit quaternion of the end effector
        m = s.chain.forward_kinematics(th).get_matrix()
        pos = m[:, :3, 3]
        rot = pk.matrix_to_quaternion(m[:, :3, :3])
        return pos, rot

    net = _module(fwd, mode, lambda out: out[0].norm() + out[1].sum(), chain=_kuka_serial())
    return net, (_q(7, mode),), {}


def _fk_kuka_all_links(mode):
    net = _module(lambda s, th: _matrices(s.chain.forward_kinematics(th, end_only=False)), mode,
                  chain=_kuka_serial(dtype=__import__("torch").float64))
    return net, (_q(7, mode, dtype=__import__("torch").float64),), {}


def _fk_kuka_unbatched(mode):
    net = _module(lambda s, th: s.chain.forward_kinematics(th).get_matrix(), mode, _pos_norm,
                  chain=_kuka_serial())
    return net, (_q(7, mode, batch=0),), {}


def _fk_kuka_tree(mode):
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_KUKA)

    def fwd(s, th):
        ret = s.chain.forward_kinematics(th)
        return ret["lbr_iiwa_link_7"].get_matrix(), ret["lbr_iiwa_link_4"].get_matrix()

    net = _module(fwd, mode, lambda out: _pos_norm(out[0]) + _pos_norm(out[1]), chain=chain)
    return net, (_q(7, mode),), {}


def _fk_frame_indices(mode):
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_KUKA)
    idx = chain.get_frame_indices("lbr_iiwa_link_3", "lbr_iiwa_link_7")
    net = _module(lambda s, th: _matrices(s.chain.forward_kinematics(th, frame_indices=s.idx)), mode,
                  chain=chain, idx=idx)
    return net, (_q(7, mode),), {}


def _fk_transform_points(mode):
    import torch

    def get_pt(s, th):  # test_jacobian's get_pt
        return s.chain.forward_kinematics(th).transform_points(
            torch.zeros((1, 3), device=th.device, dtype=th.dtype)).squeeze(1)

    net = _module(get_pt, mode, lambda p: p.norm(), chain=_kuka_serial())
    return net, (_q(7, mode),), {}


def _fk_gripper_tree(mode):
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_GRIPPER)
    n = len(chain.get_joint_parameter_names())
    net = _module(lambda s, th: _matrices(s.chain.forward_kinematics(th)), mode, chain=chain)
    return net, (_q(n, mode, scale=0.5),), {}


def _fk_gripper_serial(mode):
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_GRIPPER)
    serial = pk.SerialChain(chain, "ee_gripper_link", "base_link")
    net = _module(lambda s, th: _matrices(s.chain.forward_kinematics(th, end_only=False)), mode, chain=serial)
    return net, (_q(len(serial.get_joint_parameter_names()), mode),), {}


def _fk_gripper_subchain(mode):
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_GRIPPER)
    serial = pk.SerialChain(chain, "left_finger_link", "gripper_link")
    net = _module(lambda s, th: s.chain.forward_kinematics(th).get_matrix(), mode, _pos_norm, chain=serial)
    return net, (_q(len(serial.get_joint_parameter_names()), mode, scale=0.02),), {}


def _fk_sdf_dict(mode):
    import torch
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_sdf(_SDF_ARM).to(dtype=torch.float64)
    names = chain.get_joint_parameter_names()

    def fwd(s, th):  # batched dict of joint values, as test_fk_simple_arm
        ret = s.chain.forward_kinematics({k: th[:, i] for i, k in enumerate(s.names)})
        return ret["arm_wrist_roll"].get_matrix()

    net = _module(fwd, mode, _pos_norm, chain=chain, names=names)
    return net, (_q(len(names), mode, dtype=torch.float64),), {}


def _fk_sdf_partial_dict(mode):
    import torch
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_sdf(_SDF_ARM)
    names = chain.get_joint_parameter_names()

    def fwd(s, a, b):  # test_fk_mjcf: every joint at 0.0, then two given values
        th = {joint: 0.0 for joint in s.names}
        th.update({"arm_elbow_pan_joint": a, "arm_wrist_lift_joint": b})
        ret = s.chain.forward_kinematics(th)
        return ret["arm_wrist_roll"].get_matrix()

    net = _module(fwd, mode, _pos_norm, chain=chain, names=names)
    return net, (_grad(torch.tensor(1.0), mode), _grad(torch.tensor(-0.5), mode)), {}


def _fk_sdf_serial(mode):
    import pytorch_kinematics as pk

    chain = pk.build_serial_chain_from_sdf(_SDF_ARM, "arm_wrist_roll")
    net = _module(lambda s, th: s.chain.forward_kinematics(th).get_matrix(), mode, _pos_norm, chain=chain)
    return net, (_q(4, mode),), {}


def _fk_prismatic(mode):
    import pytorch_kinematics as pk

    chain = pk.build_serial_chain_from_urdf(_PRISMATIC, "link4")
    net = _module(lambda s, th: s.chain.forward_kinematics(th).get_matrix(), mode, _pos_norm, chain=chain)
    return net, (_q(3, mode, scale=0.4),), {}


def _fk_tensor_kuka(mode):
    import torch
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_KUKA).to(dtype=torch.float64)
    net = _module(lambda s, th: s.chain.forward_kinematics_tensor(th), mode, _fk_tensor_loss, chain=chain)
    return net, (_q(chain.n_joints, mode, 8, dtype=torch.float64),), {}


def _fk_tensor_sdf(mode):
    import torch
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_sdf(_SDF_ARM).to(dtype=torch.float64)
    net = _module(lambda s, th: s.chain.forward_kinematics_tensor(th), mode, _fk_tensor_loss, chain=chain)
    return net, (_q(chain.n_joints, mode, 8, dtype=torch.float64),), {}


def _fk_tensor_autograd(mode):
    import pytorch_kinematics as pk

    chain = pk.build_chain_from_urdf(_PRISMATIC)
    net = _module(lambda s, th: s.chain.forward_kinematics_tensor(th, analytical_grad=False), mode,
                  _fk_tensor_loss, chain=chain)
    return net, (_q(3, mode, scale=0.4),), {}


def _fk_tensor_ee(mode):
    def fwd(s, th):  # README's compiled FK: all frames then frame_to_idx
        all_transforms = s.chain.forward_kinematics_tensor(th)
        return all_transforms[s.chain.frame_to_idx["lbr_iiwa_link_7"]]

    net = _module(fwd, mode, _pos_norm, chain=_kuka_serial())
    return net, (_q(7, mode, 8),), {}


# --- jacobian -------------------------------------------------------------------------------------

def _jnorm(J):
    return J.norm()


def _jac_kuka(mode):
    net = _module(lambda s, th: s.chain.jacobian(th), mode, _jnorm,
                  chain=_kuka_serial(dtype=__import__("torch").float64))
    return net, (_q(7, mode, 8, dtype=__import__("torch").float64),), {}


def _jac_locations(mode):
    import torch

    net = _module(lambda s, th, loc: s.chain.jacobian(th, locations=loc), mode, _jnorm, chain=_kuka_serial())
    return net, (_q(7, mode), torch.rand(_B, 3)), {}


def _jac_eef_pose(mode):
    net = _module(lambda s, th: s.chain.jacobian(th, ret_eef_pose=True), mode,
                  lambda out: out[0].norm() + _pos_norm(out[1]), chain=_kuka_serial())
    return net, (_q(7, mode),), {}


def _jac_tensor(mode):
    net = _module(lambda s, th: s.chain.jacobian_tensor(th), mode, _jnorm, chain=_kuka_serial())
    return net, (_q(7, mode, 8),), {}


def _jac_sdf(mode):
    import pytorch_kinematics as pk

    chain = pk.SerialChain(pk.build_chain_from_sdf(_SDF_ARM), "arm_wrist_roll")
    net = _module(lambda s, th: s.chain.jacobian(th), mode, _jnorm, chain=chain)
    return net, (_q(4, mode),), {}


def _jac_prismatic(mode):
    import pytorch_kinematics as pk

    chain = pk.build_serial_chain_from_urdf(_PRISMATIC, "link4")
    net = _module(lambda s, th: s.chain.jacobian(th), mode, _jnorm, chain=chain)
    return net, (_q(3, mode, scale=0.4),), {}


def _jac_y_arm(mode):
    import pytorch_kinematics as pk

    chain = pk.build_serial_chain_from_urdf(_Y_ARM, "eef")
    net = _module(lambda s, th: s.chain.jacobian(th), mode, _jnorm, chain=chain)
    return net, (_q(1, mode, scale=0.5),), {}


def _jac_gripper(mode):
    import pytorch_kinematics as pk

    serial = pk.SerialChain(pk.build_chain_from_urdf(_GRIPPER), "ee_gripper_link", "base_link")
    net = _module(lambda s, th: s.chain.jacobian(th), mode, _jnorm, chain=serial)
    return net, (_q(len(serial.get_joint_parameter_names()), mode),), {}


# --- transforms -----------------------------------------------------------------------------------

def _tf_points_normals(mode):
    import torch
    import pytorch_kinematics.transforms as tf

    def fwd(s, R, t, points, normals):
        T = tf.Transform3d(rot=R, pos=t)
        p = T.transform_points(points)
        n = T.transform_normals(normals)
        back = T.inverse().transform_points(p)
        return p, n, back, T.get_matrix()

    R = tf.random_rotations(_B)
    return _module(fwd, mode), (_grad(R, mode), _grad(torch.randn(_B, 3), mode), torch.randn(_B, 5, 3),
                                torch.randn(_B, 5, 3)), {}


def _tf_compose_primitives(mode):
    import torch
    import pytorch_kinematics.transforms as tf

    def fwd(s, angles, xyz, scale, points):
        t = tf.Translate(xyz)
        r = tf.Rotate(tf.so3_exp_map(angles))
        a = tf.RotateAxisAngle(90.0, axis="Z")
        sc = tf.Scale(scale)
        T = t.compose(r, a, sc)
        T2 = tf.Transform3d().rotate_axis_angle(45.0, axis="X").translate(xyz)
        return T.transform_points(points), T2.get_matrix(), T.inverse().get_matrix()

    return _module(fwd, mode), (_grad(torch.randn(1, 3), mode), _grad(torch.randn(1, 3), mode),
                                torch.rand(1, 3) + 0.5, torch.randn(6, 3)), {}


def _tf_euler_quat(mode):
    import torch
    import pytorch_kinematics.transforms as tf

    def fwd(s, euler, quat, pos):  # test_euler, and a quaternion rotation
        te = tf.Transform3d(rot=euler)
        tq = tf.Transform3d(rot=quat, pos=pos)
        return te.compose(tq).get_matrix()

    return _module(fwd, mode), (_grad(torch.tensor([1.0, 0.0, 0.5]), mode), _grad(tf.random_quaternions(1), mode),
                                _grad(torch.randn(3), mode)), {}


def _tf_compose_axis_angle(mode):
    import torch
    import pytorch_kinematics.transforms as tf

    def fwd(s, theta):  # test_compose
        a2b = tf.Transform3d(pos=[0.1, 0, 0])
        b2j = tf.Transform3d(rot=tf.axis_angle_to_quaternion(theta * torch.tensor([0.0, 0, 1])))
        j2c = tf.Transform3d(pos=[0.1, 0, 0])
        a2c = a2b.compose(b2j, j2c)
        return a2c.get_matrix(), a2c.transform_points(torch.zeros([1, 3]))

    return _module(fwd, mode), (_grad(torch.tensor(1.5707), mode),), {}


def _tf_perturbations(mode):
    import torch
    import pytorch_kinematics.transforms as tf

    def fwd(s, R, t):
        T = tf.Transform3d(rot=R, pos=t)
        return T.sample_perturbations(5, radian_sigma=0.1, translation_sigma=0.05).get_matrix()

    return _module(fwd, mode), (_grad(tf.random_rotations(1), mode), _grad(torch.randn(1, 3), mode)), {}


# --- rotation conversions -------------------------------------------------------------------------

def _rc_round_trip(mode):
    from pytorch_kinematics.transforms import rotation_conversions as rc

    def round_trip(s, R):  # test_compile_rotation_conversions
        q = rc.matrix_to_quaternion(R)
        aa = rc.quaternion_to_axis_angle(q)
        q2 = rc.axis_angle_to_quaternion(aa)
        return rc.quaternion_to_matrix(q2), rc.matrix_to_axis_angle(R)

    import torch
    return _module(round_trip, mode), (_grad(rc.random_rotations(16, dtype=torch.float64), mode),), {}


def _rc_euler(mode):
    import torch
    import pytorch_kinematics as pk

    def fwd(s, euler):
        m = pk.euler_angles_to_matrix(euler, "XYZ")
        return m, pk.matrix_to_euler_angles(m, "XYZ"), pk.matrix_to_euler_angles(m, "ZYX")

    return _module(fwd, mode), (_grad(torch.rand(_B, 3), mode),), {}


def _rc_quaternion_ops(mode):
    import pytorch_kinematics as pk
    import pytorch_kinematics.transforms as tf

    def fwd(s, q1, q2, points):  # test_transform / test_quaternions
        ident = tf.quaternion_multiply(q1, tf.quaternion_invert(q1))
        qq = pk.standardize_quaternion(q2)
        d = pk.quaternion_angular_distance(q1, q2)
        return (ident, qq, d, pk.wxyz_to_xyzw(q1), pk.xyzw_to_wxyz(q2), tf.quaternion_apply(q1, points),
                tf.quaternion_raw_multiply(q1, q2))

    import torch
    return _module(fwd, mode), (_grad(tf.random_quaternions(_B), mode), _grad(tf.random_quaternions(_B), mode),
                                torch.randn(_B, 3)), {}


def _rc_slerp(mode):
    import torch
    import pytorch_kinematics as pk
    import pytorch_kinematics.transforms as tf

    def fwd(s, q1, q2, t):  # test_quaternion_slerp
        q = pk.quaternion_slerp(q1, q2, t)
        return q, pk.quaternion_angular_distance(q1, q)

    q = tf.random_quaternions(20)
    return _module(fwd, mode), (q[:10].clone(), q[10:].clone(), _grad(torch.rand(10), mode)), {}


def _rc_axis_angle(mode):
    import torch
    from pytorch_kinematics.transforms.rotation_conversions import (axis_and_angle_to_matrix_33,
                                                                    axis_angle_to_matrix, quaternion_from_euler)

    def fwd(s, axis_angle, rpy):
        axis_1d = torch.tensor([1.0, 0, 0], dtype=axis_angle.dtype)
        theta = axis_angle.norm(dim=1, keepdim=True)
        return (axis_angle_to_matrix(axis_angle), axis_and_angle_to_matrix_33(axis=axis_1d, theta=theta),
                quaternion_from_euler(rpy))

    return _module(fwd, mode), (_grad(torch.randn(8, 3, dtype=torch.float64), mode),
                                torch.rand(8, 3, dtype=torch.float64)), {}


def _rc_pos_rot_9d_6d(mode):
    import torch
    from pytorch_kinematics.transforms import rotation_conversions as rc

    def fwd(s, t, R):  # test_pos_rot_conversion, the 9-D and 6-D representations
        T = rc.pos_rot_to_matrix(t, rc.wxyz_to_xyzw(rc.matrix_to_quaternion(R)))
        pos, rot = rc.matrix_to_pos_rot(T)
        nine = rc.matrix44_to_se3_9d(T)
        return pos, rot, rc.se3_9d_to_matrix44(nine), rc.rotation_6d_to_matrix(rc.matrix_to_rotation_6d(R))

    R = rc.random_rotations(8)
    return _module(fwd, mode), (_grad(torch.randn(8, 3), mode), _grad(R, mode)), {}


def _so3(mode):
    import torch
    import pytorch_kinematics.transforms as tf

    def fwd(s, log_rot, R2):
        R = tf.so3_exp_map(log_rot)
        return (tf.so3_log_map(R), tf.so3_relative_angle(R, R2), tf.so3_rotation_angle(R),
                tf.acos_linear_extrapolation(log_rot.clamp(-1, 1)))

    return _module(fwd, mode), (_grad(torch.randn(_B, 3), mode), tf.random_rotations(_B)), {}


# --- inverse kinematics ---------------------------------------------------------------------------

def _ik(solver="PseudoInverseIK", line_search=False, retry=False, clamp=False):
    def make(mode):
        import torch
        import pytorch_kinematics as pk

        chain = _kuka_serial()
        lim = torch.tensor(chain.get_joint_limits())
        kwargs = dict(max_iterations=10, joint_limits=lim.T, early_stopping_any_converged=True,
                      early_stopping_no_improvement="all", debug=False, lr=0.2)
        if line_search:
            kwargs["line_search"] = pk.BacktrackingLineSearch(max_lr=0.2)
        if retry:  # test_ik_in_place_no_err
            cur_q = torch.rand(lim.shape[1]) * (lim[1] - lim[0]) + lim[0]
            kwargs.update(retry_configs=torch.stack([cur_q, cur_q * 0.5]), enforce_joint_limits=False)
        else:
            kwargs["num_retries"] = 4
        if clamp:
            kwargs.update(clamp_to_limits=True, config_sampling_method="gaussian")
        ik = getattr(pk, solver)(chain, **kwargs)

        def fwd(s, goal_q):  # test_jacobian_follower: goals from FK of in-limit configurations
            goal_in_rob_frame_tf = s.chain.forward_kinematics(goal_q)
            sol = s.ik.solve(goal_in_rob_frame_tf)
            return sol.solutions, sol.err_pos, sol.err_rot, sol.converged

        goal_q = torch.rand(3, lim.shape[1]) * (lim[1] - lim[0]) + lim[0]
        net = _module(fwd, mode, lambda out: out[1].mean() + out[2].mean(), chain=chain, ik=ik)
        return net, (goal_q,), {}

    return make


def _ik_step_kernel(mode):
    import torch
    from pytorch_kinematics.ik import _ik_step_kernel as kernel
    from pytorch_kinematics.transforms import rotation_conversions

    N, M, DOF = 4, 3, 7

    def fwd(s, m_flat, target_pos, target_wxyz, J):  # test_compile_ik_step
        return kernel(m_flat, target_pos, target_wxyz, J, s.reg_matrix, M)

    m_flat = torch.eye(4, dtype=torch.float64).unsqueeze(0).expand(N * M, -1, -1).contiguous().clone()
    m_flat[:, :3, :3] = rotation_conversions.random_rotations(N * M, dtype=torch.float64)
    m_flat[:, :3, 3] = torch.randn(N * M, 3, dtype=torch.float64)
    net = _module(fwd, mode, reg_matrix=1e-9 * torch.eye(6, dtype=torch.float64))
    return net, (m_flat, torch.randn(N, 3, dtype=torch.float64),
                 rotation_conversions.random_quaternions(N, dtype=torch.float64),
                 _grad(torch.randn(N * M, 6, DOF, dtype=torch.float64), mode)), {}


MODELS = {
    "fk_planar_batch": _fk_planar,
    "fk_kuka_pos_quat": _fk_kuka_pose,
    "fk_kuka_all_links_f64": _fk_kuka_all_links,
    "fk_kuka_unbatched": _fk_kuka_unbatched,
    "fk_kuka_tree": _fk_kuka_tree,
    "fk_frame_indices": _fk_frame_indices,
    "fk_transform_points": _fk_transform_points,
    "fk_gripper_tree": _fk_gripper_tree,
    "fk_gripper_serial": _fk_gripper_serial,
    "fk_gripper_subchain": _fk_gripper_subchain,
    "fk_sdf_dict": _fk_sdf_dict,
    "fk_sdf_partial_dict": _fk_sdf_partial_dict,
    "fk_sdf_serial": _fk_sdf_serial,
    "fk_prismatic": _fk_prismatic,
    "fk_tensor_kuka_tree": _fk_tensor_kuka,
    "fk_tensor_sdf": _fk_tensor_sdf,
    "fk_tensor_autograd": _fk_tensor_autograd,
    "fk_tensor_ee": _fk_tensor_ee,
    "jacobian_kuka": _jac_kuka,
    "jacobian_locations": _jac_locations,
    "jacobian_eef_pose": _jac_eef_pose,
    "jacobian_tensor": _jac_tensor,
    "jacobian_sdf": _jac_sdf,
    "jacobian_prismatic": _jac_prismatic,
    "jacobian_y_arm": _jac_y_arm,
    "jacobian_gripper": _jac_gripper,
    "tf_points_normals": _tf_points_normals,
    "tf_compose_primitives": _tf_compose_primitives,
    "tf_euler_quat": _tf_euler_quat,
    "tf_compose_axis_angle": _tf_compose_axis_angle,
    "tf_perturbations": _tf_perturbations,
    "rc_round_trip": _rc_round_trip,
    "rc_euler": _rc_euler,
    "rc_quaternion_ops": _rc_quaternion_ops,
    "rc_slerp": _rc_slerp,
    "rc_axis_angle": _rc_axis_angle,
    "rc_pos_rot_9d_6d": _rc_pos_rot_9d_6d,
    "so3_maps": _so3,
    "ik_pseudo_inverse": _ik(),
    "ik_svd": _ik("PseudoInverseIKWithSVD"),
    "ik_line_search": _ik(line_search=True),
    "ik_retry_configs": _ik(retry=True),
    "ik_clamp_gaussian": _ik(clamp=True),
    "ik_step_kernel": _ik_step_kernel,
}
