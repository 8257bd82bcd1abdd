"""PyPose 0.9.5 (CMU SAIR lab): differentiable robotics on PyTorch: ``LieTensor`` (a
``torch.Tensor`` subclass for the Lie groups SO3 / SE3 / Sim3 / RxSO3 and their algebras, with
``Exp`` / ``Log`` / ``Inv`` / ``Act`` / ``Jr`` / ``Adj`` ... as ``torch.autograd.Function``
kernels), ``pypose.module`` (system models, Kalman / particle filters, the IMU preintegrator,
LQR / MPC, ICP, EPnP, the geodesic loss), ``pypose.optim`` (second-order least squares: Gauss-Newton
and Levenberg-Marquardt with their solvers, robust kernels, correctors and damping strategies) and
``pypose.function`` / ``basics`` / ``func`` / ``metric`` (geometry, point-cloud filters, splines,
batched linear algebra, cumulative Lie products, jacobians, APE / RPE). Each entry is used as the
library's docstring examples (the 0.9.5 wheel's ``>>>`` blocks) and its tests
(``tests/module/test_ekf.py``, ``test_lqr.py``, ``test_mpc.py``, ``tests/optim/test_optimizer.py``,
``tests/lietensor/test_lietensor.py`` on GitHub) use them; tiny: batches of 2, a few time steps,
random weights, no download:

- LieTensor ops, each behind a small ``Linear`` head (features of width 8) that regresses the Lie
  algebra vector, so training takes gradients through PyPose's kernels: so3 ``Exp`` / ``Log``
  with ``pp.add`` / ``pp.mul``; SO3 ``Act`` on points and ``@``; SO3 ``*`` / ``Inv`` / ``matrix``;
  so3 ``Jr``; se3 ``Exp`` then ``Act`` / ``translation`` / ``rotation``; SE3
  ``(X.Inv() @ (Y * pp.randn_like(Y))).Log()`` (the relative pose residual on a perturbed
  measurement) and ``identity_like``; SE3 ``Adj`` / ``AdjT`` / ``Jinvp`` / ``Retr``; SE3
  ``matrix`` then ``mat2SE3`` (and ``from_matrix``); sim3 ``Exp`` / ``Log`` / ``Act`` / ``scale``
  and Sim3 ``*`` / ``Inv``; rxso3 ``Exp`` / ``Act``; ``euler2SO3`` / ``.euler()`` and
  ``quat2unit``; ``cumprod`` / ``cummul`` of SE3 chains; the docs' ``PoseInv`` (a ``pp.Parameter``
  se3 pose, ``(pose.Exp() @ input).Log()``); ``GeodesicLoss`` / ``geodesic_loss`` on SO3 heads;
- system models (``pypose.module.dynamics``): ``LTI`` (docs), the docs' ``MyLTV`` (time-indexed
  matrices, ``_t % T``), the docs' ``Floquet`` NLS with ``set_refpoint`` (linearisation by
  ``jacobian``);
- filters on the docs' ``NLS`` (``state.cos() + input`` / ``state.sin() + input``): one ``EKF``,
  ``UKF`` and ``PF`` (``particles=100``) step each (train: a ``Linear`` in the system and the
  estimate's error);
- ``IMUPreintegrator``: a batch of 2 sequences of 10 frames with ``rot``, ``gyro_cov`` /
  ``acc_cov`` and an ``init_state`` (``reset=True, prop_cov=True``), and learnable gyroscope /
  accelerometer corrections in front of it with a position + rotation loss, as PyPose's IMU
  calibration example trains them;
- control: ``LQR`` on the docs' ``LTI`` (train: ``Q`` / ``p`` as parameters, the cost as loss, the
  differentiable-LQR use), ``MPC`` on the docs' ``CartPole`` (``ReduceToBason(steps=3)``);
- ``ICP`` (docs, ``ReduceToBason(steps=3)``), ``EPnP`` (docs, ``refine=True``: its Gauss-Newton
  refinement; train: the reprojection error of the estimate);
- optim: one ``optimizer.step(input)`` each of ``GN`` (default ``PINV``), ``LM`` with
  ``Adaptive`` damping (docs), ``LM`` with ``Huber`` kernel + ``FastTriggs`` corrector +
  ``Cholesky`` solver + ``Constant`` damping, ``LM`` with ``TrustRegion`` + ``LSTSQ`` +
  ``Cauchy`` kernel + ``Triggs`` corrector and a ``weight``, ``GN`` on a ``Linear`` net with a
  ``target``, the ``StopOnPlateau`` scheduler's ``optimize`` (2 steps); ``optim.functional.modjac``
  (docs); the solvers ``PINV`` / ``LSTSQ`` / ``Cholesky`` / ``CG``; the robust kernels
  ``Huber`` / ``PseudoHuber`` / ``Cauchy`` / ``SoftLOne`` / ``Arctan`` / ``Tolerant`` / ``Scale``;
- functions: ``point2pixel`` / ``pixel2point`` / ``reprojerr`` / ``cart2homo`` / ``homo2cart``;
  ``knn`` / ``svdtf`` / ``svdstf``; the point-cloud filters ``nbr_filter`` + ``knn_filter`` (the
  docs' cloud) and ``voxel_filter`` + ``random_filter``; ``chspline`` and ``bspline`` (docs);
  ``bvv`` / ``bmv`` / ``bvmv`` / ``pm``; ``pp.func.jacrev`` (docs); ``pp.metric.ape`` and ``rpe``
  on the docs' trajectories (timestamps associated by the library, ``diff=0.6``).

Eval: the callable's outputs as the library returns them (LieTensors, dicts, tuples). Train: the
library's own loss where there is one (``GeodesicLoss``, the LQR / MPC cost, the reprojection
error, the optimizer's ``step`` which returns the loss), else the sum of the means of the float
outputs (``mean_loss_module``); the optimizers' ``step`` is the training step itself, the same in
both modes. Measured first as it came, before any rule looked at it.

    pip install --no-deps pypose==0.9.5

(torch 2.13.0 and packaging, its only run-time imports, are already installed; ``pytest``, a
declared dependency, is imported only by its tests. ``bae``, the optional sparse backend, is not
installed: the sparse ``LM(sparse=True)`` / ``parallel_for_sparse_jacobian`` path is left out.)
Nothing stubbed.

Adapted to run: the optimizers with a ``kernel`` / ``corrector`` fit a ``PoseInv`` returning
``.Log().tensor()`` (a LieTensor residual fails eagerly in the corrector's ``sj * J``, the library's
own message says to call ``.tensor()``); ``CG`` gets a detached ``A`` (it matmuls with ``out=``,
no autograd); ``knn_filter`` runs on the docs' cloud (on 12 random points it indexes out of
range eagerly); ``se3.Jr`` is not implemented in 0.9.5 (so3 only), left out.

Left out: the sparse BSR / ``bae`` optimizer path (optional backend, CUDA in its docs); the
``utils.collect_env`` report (subprocess); ``ReduceToBason`` / ``scheduler`` loops beyond 2-3
steps (Python bookkeeping around the steps kept); ``ape`` / ``rpe`` options beyond the docs' call.
"""

PACKAGE = "pypose"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 2
_D = 8


def warm_up():
    import pypose  # noqa: F401
    import pypose.module  # noqa: F401
    import pypose.optim  # noqa: F401
    import torch  # noqa: F401


def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _feat(*shape):
    import torch

    return torch.randn(*shape, _D)


# --- LieTensor ops -----------------------------------------------------------------------------

def _lie(kind):
    """A Linear head regressing a Lie algebra vector, then one PyPose use of it."""
    import torch
    import pypose as pp
    from torch import nn

    dims = {"so3": 3, "se3": 6, "sim3": 7, "rxso3": 4}

    class LieOp(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(_D, dims[kind.split("_")[0]])
            self.head2 = nn.Linear(_D, dims[kind.split("_")[0]])

        def forward(self, x, points):
            a = 0.5 * self.head(x)
            b = 0.5 * self.head2(x)
            if kind == "so3_exp_log":
                R = pp.so3(a).Exp()
                return R.Log(), pp.add(pp.so3(a), pp.so3(b)).Exp(), pp.mul(R, R)
            if kind == "so3_act":
                R = pp.so3(a).Exp()
                return R.Act(points), R @ points
            if kind == "so3_mul_inv":
                R1, R2 = pp.so3(a).Exp(), pp.so3(b).Exp()
                return (R1 * R2.Inv()).matrix(), (R1.Inv() @ R2).tensor()
            if kind == "so3_jr":
                r = pp.so3(a)
                return r.Jr() @ b.unsqueeze(-1)
            if kind == "se3_act":
                T = pp.se3(a).Exp()
                return T.Act(points), T.translation(), T.rotation().tensor()
            if kind == "se3_relative":
                T1, T2 = pp.se3(a).Exp(), pp.se3(b).Exp()
                noise = pp.randn_like(T2, sigma=0.01)  # perturbed measurement
                return (T1.Inv() @ (T2 * noise)).Log(), pp.identity_like(T1).tensor()
            if kind == "se3_adj":
                T = pp.se3(a).Exp()
                v = pp.se3(b)
                return T.Adj(v), T.AdjT(v), T.Jinvp(v), T.Retr(v)
            if kind == "se3_matrix":
                M = pp.se3(a).Exp().matrix()
                return pp.mat2SE3(M, check=False), pp.from_matrix(M, ltype=pp.SE3_type, check=False)
            if kind == "sim3_act":
                S, S2 = pp.sim3(a).Exp(), pp.sim3(b).Exp()
                return S.Act(points), S.Log(), S.scale(), (S * S2.Inv()).matrix()
            if kind == "rxso3_act":
                S = pp.rxso3(a).Exp()
                return S.Act(points), S.Log()
            if kind == "so3_euler_quat":
                R = pp.euler2SO3(a)
                q = pp.quat2unit(torch.cat([b, b[..., :1]], dim=-1))
                return R.euler(), pp.SO3(q).matrix()
            raise ValueError(kind)

    return LieOp()


def _lie_model(kind):
    def make(mode):
        import torch

        net = _lie(kind)
        return _wrap(net, mode), (_feat(_B), torch.randn(_B, 3)), {}

    make.__name__ = f"_lie_{kind}"
    return make


def _cumprod(mode):
    import torch
    import pypose as pp
    from torch import nn

    class Chain(nn.Module):  # a trajectory from relative poses (odometry)
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(_D, 6)

        def forward(self, x):
            T = pp.se3(0.3 * self.head(x)).Exp()  # (B, N, 7)
            return pp.cumprod(T, dim=1), pp.cummul(T, dim=1, left=False), T.cumprod(dim=1)

    return _wrap(Chain(), mode), (_feat(_B, 5),), {}


def _pose_inv(mode):
    import pypose as pp
    from torch import nn

    class PoseInv(nn.Module):  # the optimizer docs' model
        def __init__(self, *dim):
            super().__init__()
            self.pose = pp.Parameter(pp.randn_se3(*dim))

        def forward(self, input):
            return (self.pose.Exp() @ input).Log()

    return _wrap(PoseInv(2, 2), mode), (pp.randn_SE3(2, 2),), {}


def _geodesic(mode):
    import torch
    import pypose as pp
    from torch import nn

    class Rot(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(_D, 3)
            self.criterion = pp.module.GeodesicLoss(reduction="mean")

        def forward(self, x, target):
            R = pp.so3(self.head(x)).Exp()
            if self.training:
                return self.criterion(R, target) + pp.geodesic_loss(R, target, reduction="sum")
            return R

    return Rot(), (_feat(_B), pp.randn_SO3(_B)), {}


# --- system models -----------------------------------------------------------------------------

def _lti(mode):
    import torch
    import pypose as pp

    Bd, Sd, Id, Od = 2, 3, 2, 2
    A, B = torch.randn(Bd, Sd, Sd), torch.randn(Bd, Sd, Id)
    C, D = torch.randn(Bd, Od, Sd), torch.randn(Bd, Od, Id)
    c1, c2 = torch.randn(Bd, Sd), torch.randn(Bd, Od)
    lti = pp.module.LTI(A, B, C, D, c1, c2)
    state = torch.randn(Bd, Sd, requires_grad=(mode == "train"))
    return _wrap(lti, mode), (state, torch.randn(Bd, Id)), {}


def _ltv(mode):
    import torch
    import pypose as pp

    n_batch, n_state, n_ctrl, T = 2, 4, 3, 5
    A = torch.randn(n_batch, T, n_state, n_state)
    B = torch.randn(n_batch, T, n_state, n_ctrl)
    C = torch.tile(torch.eye(n_state), (n_batch, T, 1, 1))
    D = torch.tile(torch.zeros(n_state, n_ctrl), (n_batch, T, 1, 1))

    class MyLTV(pp.module.LTV):
        def __init__(self, A, B, C, D, T):
            super().__init__(A, B, C, D)
            self.T = T

        @property
        def A(self):
            return self._A[..., self._t % self.T, :, :]

        @property
        def B(self):
            return self._B[..., self._t % self.T, :, :]

        @property
        def C(self):
            return self._C[..., self._t % self.T, :, :]

        @property
        def D(self):
            return self._D[..., self._t % self.T, :, :]

    ltv = MyLTV(A, B, C, D, T)
    x = torch.randn(n_batch, n_state, requires_grad=(mode == "train"))
    return _wrap(ltv, mode), (x, torch.randn(n_batch, n_ctrl)), {}


def _floquet_cls():
    import math
    import torch
    import pypose as pp

    class Floquet(pp.module.NLS):
        def __init__(self):
            super().__init__()

        def state_transition(self, state, input, t):
            cc = (2 * math.pi * t / 100).cos()
            ss = (2 * math.pi * t / 100).sin()
            A = torch.tensor([[1., cc / 10],
                              [cc / 10, 1.]], device=t.device)
            B = torch.tensor([[ss],
                              [1.]], device=t.device)
            return pp.bmv(A, state) + pp.bmv(B, input)

        def observation(self, state, input, t):
            return state + t

    return Floquet


def _floquet(mode):
    import math
    import torch
    from torch import nn

    Floquet = _floquet_cls()

    class Linearised(nn.Module):  # one step, then the Jacobians at the new reference point
        def __init__(self):
            super().__init__()
            self.system = Floquet().reset(t=8)

        def forward(self, current, input):
            nxt, obs = self.system(current, input)
            self.system.set_refpoint()
            return nxt, obs, self.system.A, self.system.B, self.system.C, self.system.D

    step = 8
    current = torch.tensor([1., 1.], requires_grad=(mode == "train"))
    input = torch.tensor(2 * math.pi / 50 * step).sin().reshape(1)
    return _wrap(Linearised(), mode), (current, input), {}


# --- filters -----------------------------------------------------------------------------------

def _filter(kind):
    def make(mode):
        import torch
        import pypose as pp
        from torch import nn

        class NLS(pp.module.NLS):  # the filters' docs model (+ a learnable gain in train)
            def __init__(self):
                super().__init__()
                self.gain = nn.Parameter(torch.ones(2))

            def state_transition(self, state, input, t=None):
                return state.cos() * self.gain + input

            def observation(self, state, input, t):
                return state.sin() + input

        class Step(nn.Module):
            def __init__(self):
                super().__init__()
                model = NLS()
                if kind == "EKF":
                    self.filter = pp.module.EKF(model)
                elif kind == "UKF":
                    self.filter = pp.module.UKF(model)
                else:
                    self.filter = pp.module.PF(model, particles=100)

            def forward(self, estim, observ, input, P, Q, R, state):
                x, P = self.filter(estim, observ, input, P, Q, R)
                if self.training:
                    return (state - x).norm(dim=-1).mean() + P.diagonal(dim1=-2, dim2=-1).mean()
                return x, P

        N, q, r, p = 2, 0.1, 0.1, 10
        Q, R = torch.eye(N) * q ** 2, torch.eye(N) * r ** 2
        P = torch.eye(N) * p ** 2
        estim = torch.randn(N) * p
        inputs = torch.randn(N)
        return Step(), (estim, torch.randn(N) * r, inputs, P, Q, R, torch.zeros(N)), {}

    make.__name__ = f"_filter_{kind}"
    return make


# --- IMU ---------------------------------------------------------------------------------------

def _imu_batch(mode):
    import torch
    import pypose as pp

    B, F = 2, 10
    integrator = pp.module.IMUPreintegrator(reset=True, prop_cov=True)
    dt = torch.full((B, F, 1), 0.01)
    gyro = 0.1 * torch.randn(B, F, 3)
    acc = torch.randn(B, F, 3) + torch.tensor([0., 0., 9.81])
    rot = pp.randn_SO3(B, F, sigma=0.1)
    gyro_cov = torch.full((B, F, 3), 1e-4)
    acc_cov = torch.full((B, F, 3), 1e-3)
    init = {"pos": torch.zeros(B, 1, 3), "rot": pp.identity_SO3(B, 1), "vel": torch.zeros(B, 1, 3)}
    if mode == "train":
        gyro.requires_grad_(True)
    return _wrap(integrator, mode), (dt, gyro, acc, rot, gyro_cov, acc_cov, init), {}


def _imu_calib(mode):
    import torch
    import pypose as pp
    from torch import nn

    class IMUCorrector(nn.Module):  # the IMU calibration example: learned corrections
        def __init__(self):
            super().__init__()
            self.gyro_net = nn.Sequential(nn.Linear(3, 16), nn.GELU(), nn.Linear(16, 3))
            self.acc_net = nn.Sequential(nn.Linear(3, 16), nn.GELU(), nn.Linear(16, 3))
            self.imu = pp.module.IMUPreintegrator(reset=True, prop_cov=False)

        def forward(self, dt, gyro, acc, rot, gt_pos, gt_rot):
            gyro = gyro + 0.01 * self.gyro_net(gyro)
            acc = acc + 0.01 * self.acc_net(acc)
            state = self.imu(dt=dt, gyro=gyro, acc=acc, rot=rot,
                             init_state={"pos": torch.zeros(_B, 1, 3), "rot": pp.identity_SO3(_B, 1),
                                         "vel": torch.zeros(_B, 1, 3)})
            if self.training:
                pos_loss = (state["pos"][:, -1] - gt_pos).norm(dim=-1).mean()
                rot_loss = (state["rot"][:, -1].Inv() * gt_rot).Log().norm(dim=-1).mean()
                return pos_loss + rot_loss
            return state

    F = 10
    return IMUCorrector(), (torch.full((_B, F, 1), 0.01), 0.1 * torch.randn(_B, F, 3),
                            torch.randn(_B, F, 3), pp.randn_SO3(_B, F, sigma=0.1),
                            torch.randn(_B, 3), pp.randn_SO3(_B)), {}


# --- control -----------------------------------------------------------------------------------

def _lqr(mode):
    import torch
    import pypose as pp
    from torch import nn

    n_batch, T = 2, 5
    n_state, n_ctrl = 4, 3
    n_sc = n_state + n_ctrl
    Q = torch.randn(n_batch, T, n_sc, n_sc)
    Q = torch.matmul(Q.mT, Q) + 0.1 * torch.eye(n_sc)
    p = torch.randn(n_batch, T, n_sc)
    r = 0.2 * torch.randn(n_state, n_state)
    A = torch.tile(torch.eye(n_state) + r, (n_batch, 1, 1))
    B = torch.randn(n_batch, n_state, n_ctrl)
    C = torch.tile(torch.eye(n_state), (n_batch, 1, 1))
    D = torch.tile(torch.zeros(n_state, n_ctrl), (n_batch, 1, 1))
    c1 = torch.tile(torch.randn(n_state), (n_batch, 1))
    c2 = torch.tile(torch.zeros(n_state), (n_batch, 1))
    x_init = torch.randn(n_batch, n_state)
    lti = pp.module.LTI(A, B, C, D, c1, c2)

    class DiffLQR(nn.Module):  # learning the cost: Q and p as parameters
        def __init__(self):
            super().__init__()
            self.Q = nn.Parameter(Q)
            self.p = nn.Parameter(p)

        def forward(self, x_init, dt):
            x, u, cost = pp.module.LQR(lti, self.Q, self.p, T)(x_init, dt)
            if self.training:
                return cost.mean()
            return x, u, cost

    return DiffLQR(), (x_init, 1), {}


def _mpc(mode):
    import torch
    import pypose as pp
    from torch import nn

    class CartPole(pp.module.NLS):
        def __init__(self, dt, length, cartmass, polemass, gravity):
            super().__init__()
            self.tau = dt
            self.length = length
            self.cartmass = cartmass
            self.polemass = polemass
            self.gravity = gravity
            self.poleml = self.polemass * self.length
            self.totalMass = self.cartmass + self.polemass

        def state_transition(self, state, input, t=None):
            x, xDot, theta, thetaDot = state.squeeze()
            force = input.squeeze()
            costheta = torch.cos(theta)
            sintheta = torch.sin(theta)
            temp = (force + self.poleml * thetaDot ** 2 * sintheta) / self.totalMass
            thetaAcc = (self.gravity * sintheta - costheta * temp) / \
                (self.length * (4.0 / 3.0 - self.polemass * costheta ** 2 / self.totalMass))
            xAcc = temp - self.poleml * thetaAcc * costheta / self.totalMass
            _dstate = torch.stack((xDot, xAcc, thetaDot, thetaAcc))
            return (state.squeeze() + torch.mul(_dstate, self.tau)).unsqueeze(0)

        def observation(self, state, input, t=None):
            return state

    dt, len_, m_cart, m_pole, g = 0.01, 1.5, 20, 10, 9.81
    n_batch, T = 1, 5
    n_state, n_ctrl = 4, 1
    n_sc = n_state + n_ctrl
    Q = torch.tile(torch.eye(n_state + n_ctrl), (n_batch, T, 1, 1))
    p = torch.randn(n_batch, T, n_sc)
    time = torch.arange(0, T) * dt
    current_u = torch.sin(time).unsqueeze(1).unsqueeze(0)
    x_init = torch.tensor([[0, 0, torch.pi, 0]])
    stepper = pp.utils.ReduceToBason(steps=3, verbose=False)
    system = CartPole(dt, len_, m_cart, m_pole, g)
    mpc = pp.module.MPC(system, Q, p, T, stepper=stepper)

    class Control(nn.Module):
        def __init__(self):
            super().__init__()
            self.mpc = mpc

        def forward(self, dt, x_init, u_init):
            x, u, cost = self.mpc(dt, x_init, u_init=u_init)
            if self.training:
                return cost.mean()
            return x, u, cost

    if mode == "train":
        current_u.requires_grad_(True)
    return Control(), (dt, x_init, current_u), {}


# --- registration / PnP ------------------------------------------------------------------------

def _icp(mode):
    import torch
    import pypose as pp

    source = torch.tensor([[[0., 0., 0.], [1., 0., 0.], [2., 0, 0.]]])
    target = torch.tensor([[[0.2, 0.1, 0.], [1.1397, 0.442, 0.], [2.0794, 0.7840, 0.]]])
    stepper = pp.utils.ReduceToBason(steps=3, verbose=False)
    icp = pp.module.ICP(stepper=stepper)
    if mode == "train":
        source.requires_grad_(True)
    return _wrap(icp, mode), (source, target), {}


def _epnp(refine):
    def make(mode):
        import torch
        import pypose as pp
        from torch import nn

        f, (H, W) = 2, (9, 9)
        intrinsics = torch.tensor([[f, 0, H / 2], [0, f, W / 2], [0, 0, 1]])
        obj = torch.tensor([[2., 0., 2.], [1., 0., 2.], [0., 1., 1.],
                            [0., 0., 1.], [1., 0., 1.], [5., 5., 3.]])
        pixels = pp.point2pixel(obj, intrinsics)
        pose = pp.SE3([0., -8, 0., 0., -0.3827, 0., 0.9239])
        points = pose.Inv() @ obj

        class PnP(nn.Module):
            def __init__(self):
                super().__init__()
                self.epnp = pp.module.EPnP(intrinsics, refine=refine)

            def forward(self, points, pixels):
                T = self.epnp(points, pixels)
                if self.training:
                    return pp.reprojerr(points, pixels, intrinsics, T, reduction="norm").mean()
                return T

        pts = points.detach().clone()
        if mode == "train":
            pts.requires_grad_(True)
        return PnP(), (pts, pixels), {}

    make.__name__ = f"_epnp_{refine}"
    return make


# --- optim -------------------------------------------------------------------------------------

def _pose_inv_cls(tensor=False):
    import pypose as pp
    from torch import nn

    class PoseInv(nn.Module):
        def __init__(self, *dim):
            super().__init__()
            self.pose = pp.Parameter(pp.randn_se3(*dim))

        def forward(self, input):
            error = (self.pose.Exp() @ input).Log()
            return error.tensor() if tensor else error  # kernels / correctors need a plain residual

    return PoseInv


def _optimizer(kind):
    def make(mode):
        import torch
        import pypose as pp
        from torch import nn

        PoseInv = _pose_inv_cls(tensor=kind in ("LM_huber", "LM_trust"))
        posinv = PoseInv(2, 2)
        input = pp.randn_SE3(2, 2)
        target = None
        if kind == "GN":
            optimizer = pp.optim.GN(posinv)
        elif kind == "LM_adaptive":
            optimizer = pp.optim.LM(posinv, strategy=pp.optim.strategy.Adaptive(damping=1e-6))
        elif kind == "LM_huber":
            kernel = pp.optim.kernel.Huber(delta=0.5)
            optimizer = pp.optim.LM(posinv, solver=pp.optim.solver.Cholesky(),
                                    strategy=pp.optim.strategy.Constant(damping=1e-4), kernel=kernel,
                                    corrector=pp.optim.corrector.FastTriggs(kernel))
        elif kind == "LM_trust":
            kernel = pp.optim.kernel.Cauchy()
            optimizer = pp.optim.LM(posinv, solver=pp.optim.solver.LSTSQ(),
                                    strategy=pp.optim.strategy.TrustRegion(radius=1e3), kernel=kernel,
                                    corrector=pp.optim.corrector.Triggs(kernel),
                                    weight=torch.eye(6).repeat(2, 2, 1, 1))
        elif kind == "GN_net":  # a small curve fit with a target, as test_optimizer does
            posinv = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
            input, target = torch.randn(6, 3), torch.randn(6, 2)
            optimizer = pp.optim.GN(posinv, vectorize=True)
        else:
            raise ValueError(kind)

        class Step(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = posinv
                self.optimizer = optimizer

            def forward(self, input, target=None):
                return self.optimizer.step(input, target)

        return Step(), (input, target), {}

    make.__name__ = f"_optimizer_{kind}"
    return make


def _scheduler(mode):
    import pypose as pp
    from torch import nn

    PoseInv = _pose_inv_cls()
    invnet = PoseInv(2, 2)
    optimizer = pp.optim.LM(invnet, strategy=pp.optim.strategy.Constant(damping=1e-4))
    scheduler = pp.optim.scheduler.StopOnPlateau(optimizer, steps=2, patience=3, decreasing=1e-3,
                                                 verbose=False)

    class Optimize(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = invnet

        def forward(self, input):
            scheduler.optimize(input=input)
            return self.model(input)

    return _wrap(Optimize(), mode), (pp.randn_SE3(2, 2),), {}


def _modjac(mode):
    import torch
    import pypose as pp
    from torch import nn

    class PoseTransform(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = pp.Parameter(pp.randn_so3(2))

        def forward(self, x):
            return self.p.Exp() * x

    class Jac(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(in_channels=2, out_channels=2, kernel_size=1)
            self.pose = PoseTransform()

        def forward(self, x, r):
            J1 = pp.optim.functional.modjac(self.conv, x, flatten=True)
            J2 = pp.optim.functional.modjac(self.pose, r, flatten=True)
            return J1, J2

    return _wrap(Jac(), mode), (torch.randn(2, 2, 2), pp.randn_SO3()), {}


def _solvers(mode):
    import torch
    import pypose.optim.solver as ppos
    from torch import nn

    class Solve(nn.Module):
        def __init__(self):
            super().__init__()
            self.m = nn.Parameter(torch.randn(2, 3, 3))
            self.pinv, self.lstsq = ppos.PINV(), ppos.LSTSQ(driver="gels")
            self.chol, self.cg = ppos.Cholesky(), ppos.CG()

        def forward(self, b):
            A = self.m @ self.m.mT + 3 * torch.eye(3)
            return self.pinv(A, b), self.lstsq(A, b), self.chol(A, b), self.cg(A[0].detach(), b[0])

    return _wrap(Solve(), mode), (torch.randn(2, 3, 1),), {}


def _kernels(mode):
    import torch
    import pypose.optim.kernel as ppok
    from torch import nn

    class Robust(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(_D, 5)
            self.kernels = nn.ModuleList([ppok.Huber(), ppok.PseudoHuber(), ppok.Cauchy(), ppok.SoftLOne(),
                                          ppok.Arctan(), ppok.Tolerant(), ppok.Scale()])

        def forward(self, x):
            r = self.lin(x).square()
            return [k(r) for k in self.kernels]

    return _wrap(Robust(), mode), (_feat(_B),), {}


def _jacrev(mode):
    import torch
    import pypose as pp
    from torch import nn

    def func(pose, points):
        return pose @ points

    class Jac(nn.Module):
        def forward(self, pose, points):
            return pp.func.jacrev(func)(pose, points)

    return _wrap(Jac(), mode), (pp.randn_SE3(1), torch.randn(1, 3)), {}


# --- functions ---------------------------------------------------------------------------------

def _camera():
    import torch

    f, (H, W) = 2, (9, 9)
    return torch.tensor([[f, 0, H / 2], [0, f, W / 2], [0, 0, 1]])


def _geometry(mode):
    import torch
    import pypose as pp
    from torch import nn

    K = _camera()

    class Project(nn.Module):
        def __init__(self):
            super().__init__()
            self.pose = pp.Parameter(pp.randn_SE3(sigma=0.1))

        def forward(self, points, pixels, depth):
            px = pp.point2pixel(points, K, self.pose)
            back = pp.pixel2point(pixels, depth, K)
            h = pp.homo2cart(pp.cart2homo(points))
            err = pp.reprojerr(points, pixels, K, self.pose, reduction="norm")
            if self.training:
                return err.mean()
            return px, back, h, err

    obj = torch.randn(6, 3) + torch.tensor([0., 0., 5.])
    pixels = pp.point2pixel(obj, K, pp.randn_SE3(sigma=0.1))
    depth = torch.tensor([5.0, 3.0, 6.5, 2.0, 0.5, 0.7])
    return Project(), (obj, pixels, depth), {}


def _registration(mode):
    import torch
    import pypose as pp
    from torch import nn

    class Register(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, source, target):
            s = self.lin(source)
            knn = pp.knn(s, target, k=2, ord=2)
            return knn.values, knn.indices, pp.svdtf(s, target).tensor(), pp.svdstf(s, target).tensor()

    return _wrap(Register(), mode), (torch.randn(_B, 6, 3), torch.randn(_B, 6, 3)), {}


def _filters(kind):
    def make(mode):
        import torch
        import pypose as pp
        from torch import nn

        class Filter(nn.Module):
            def __init__(self):
                super().__init__()
                self.offset = nn.Parameter(torch.zeros(3))

            def forward(self, points):
                p = points + self.offset
                if kind == "nbr_knn":
                    return (pp.nbr_filter(p, nbr=2, radius=5), pp.nbr_filter(p, nbr=2, radius=12, return_mask=True),
                            pp.knn_filter(p, k=2, radius=5))
                if kind == "voxel_random":
                    return (pp.voxel_filter(p, [1., 1., 1.]), pp.voxel_filter(p, [1., 1., 1.], random=True),
                            pp.random_filter(p, 3))
                raise ValueError(kind)

        if kind == "nbr_knn":  # the docs' cloud
            points = torch.tensor([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.],
                                   [0., 1., 1.], [10., 1., 1.], [10., 1., 10.]])
        else:
            points = 3 * torch.randn(12, 3)
        return _wrap(Filter(), mode), (points,), {}

    make.__name__ = f"_filters_{kind}"
    return make


def _chspline(mode):
    import torch
    import pypose as pp
    from torch import nn

    class Path(nn.Module):
        def __init__(self):
            super().__init__()
            self.offset = nn.Parameter(torch.zeros(3))

        def forward(self, points):
            return pp.chspline(points + self.offset, 0.1)

    points = torch.tensor([[[0., 0., 0.], [1., .5, 0.1], [0., 1., 0.2], [1., 1.5, 0.4], [1.5, 0., 0.],
                            [2., 1.5, 0.4], [2.5, 0., 0.], [1.75, 0.75, 0.2], [2.25, 0.75, 0.2],
                            [3., 1.5, 0.4], [3., 0., 0.], [4., 0., 0.], [4., 1.5, 0.4], [5., 1., 0.2],
                            [4., 0.75, 0.2], [5., 0., 0.]]])
    return _wrap(Path(), mode), (points,), {}


def _bspline(mode):
    import torch
    import pypose as pp
    from torch import nn

    class Trajectory(nn.Module):
        def __init__(self):
            super().__init__()
            self.delta = pp.Parameter(pp.identity_se3(2, 4))

        def forward(self, poses):
            return pp.bspline(self.delta.Exp() * poses, 0.1)

    a1 = pp.euler2SO3(torch.Tensor([0., 0., 0.]))
    a2 = pp.euler2SO3(torch.Tensor([torch.pi / 4., torch.pi / 3., torch.pi / 2.]))
    poses = pp.SE3([[[0., 4., 0., a1[0], a1[1], a1[2], a1[3]],
                     [0., 3., 0., a1[0], a1[1], a1[2], a1[3]],
                     [0., 2., 0., a1[0], a1[1], a1[2], a1[3]],
                     [0., 1., 0., a1[0], a1[1], a1[2], a1[3]]],
                    [[0., 1., 0., a2[0], a2[1], a2[2], a2[3]],
                     [0., 2., 0., a2[0], a2[1], a2[2], a2[3]],
                     [0., 3., 0., a2[0], a2[1], a2[2], a2[3]],
                     [0., 4., 0., a2[0], a2[1], a2[2], a2[3]]]])
    return _wrap(Trajectory(), mode), (poses,), {}


def _linalg(mode):
    import torch
    import pypose as pp
    from torch import nn

    class Batched(nn.Module):
        def __init__(self):
            super().__init__()
            self.m = nn.Parameter(torch.randn(_B, 3, 3))

        def forward(self, u, v):
            return pp.bvv(u, v), pp.bmv(self.m, v), pp.bvmv(u, self.m, v), pp.pm(u)

    return _wrap(Batched(), mode), (torch.randn(_B, 3), torch.randn(_B, 3)), {}


def _metric(mode):
    import torch
    import pypose as pp
    from torch import nn

    rstamp = torch.tensor([1311868163.8696999550, 1311868163.8731000423, 1311868163.8763999939])
    rpose = pp.SE3([[-0.1357000023, -1.4217000008, 1.4764000177, 0.6452999711, -0.5497999787,
                     0.3362999856, -0.4101000130],
                    [-0.1357000023, -1.4218000174, 1.4764000177, 0.6453999877, -0.5497000217,
                     0.3361000121, -0.4101999998],
                    [-0.1358000040, -1.4219000340, 1.4764000177, 0.6455000043, -0.5498999953,
                     0.3357999921, -0.4101000130]])
    estamp = torch.tensor([1311868164.3631811142, 1311868164.3990259171, 1311868164.4309399128])
    epose = pp.SE3([[0.0000000000, 0.0000000000, 0.0000000000, 0.0000000000, 0.0000000000,
                     0.0000000000, 1.0000000000],
                    [-0.0005019794, 0.0010138383, 0.0027180903, -0.0006908852, -0.0014905975,
                     -0.0002505593, 0.9999983907],
                    [-0.0007940704, 0.0017833334, 0.0049354797, -0.0013679261, -0.0028478778,
                     -0.0004810539, 0.9999944444]])

    class Metric(nn.Module):
        def forward(self, rstamp, rpose, estamp, epose):
            return (pp.metric.ape(rstamp, rpose, estamp, epose, diff=0.6),
                    pp.metric.rpe(rstamp, rpose, estamp, epose, diff=0.6))

    return _wrap(Metric(), mode), (rstamp, rpose, estamp, epose), {}


MODELS = {
    # LieTensor
    "so3_Exp_Log": _lie_model("so3_exp_log"),
    "SO3_Act": _lie_model("so3_act"),
    "SO3_mul_Inv_matrix": _lie_model("so3_mul_inv"),
    "so3_Jr": _lie_model("so3_jr"),
    "SE3_Act_translation": _lie_model("se3_act"),
    "SE3_relative_Log": _lie_model("se3_relative"),
    "SE3_Adj_AdjT_Jinvp": _lie_model("se3_adj"),
    "SE3_matrix_mat2SE3": _lie_model("se3_matrix"),
    "Sim3_Act_Log_scale": _lie_model("sim3_act"),
    "RxSO3_Act_Log": _lie_model("rxso3_act"),
    "SO3_euler_quat2unit": _lie_model("so3_euler_quat"),
    "SE3_cumprod_cummul": _cumprod,
    "PoseInv_Parameter": _pose_inv,
    "GeodesicLoss": _geodesic,
    # systems
    "LTI": _lti,
    "LTV_docs": _ltv,
    "NLS_Floquet_set_refpoint": _floquet,
    # filters
    "EKF": _filter("EKF"),
    "UKF": _filter("UKF"),
    "PF": _filter("PF"),
    # IMU
    "IMUPreintegrator_batch_cov": _imu_batch,
    "IMUPreintegrator_calib": _imu_calib,
    # control
    "LQR_LTI": _lqr,
    "MPC_CartPole": _mpc,
    # registration / PnP
    "ICP": _icp,
    "EPnP": _epnp(True),
    # optim
    "GN_step": _optimizer("GN"),
    "LM_Adaptive_step": _optimizer("LM_adaptive"),
    "LM_Huber_FastTriggs_Cholesky_step": _optimizer("LM_huber"),
    "LM_TrustRegion_Cauchy_Triggs_LSTSQ_step": _optimizer("LM_trust"),
    "GN_net_target_step": _optimizer("GN_net"),
    "StopOnPlateau_optimize": _scheduler,
    "modjac": _modjac,
    "solvers": _solvers,
    "kernels": _kernels,
    "func_jacrev": _jacrev,
    # functions
    "geometry_point2pixel_reprojerr": _geometry,
    "knn_svdtf_svdstf": _registration,
    "nbr_filter_knn_filter": _filters("nbr_knn"),
    "voxel_filter_random_filter": _filters("voxel_random"),
    "chspline": _chspline,
    "bspline": _bspline,
    "bvv_bmv_bvmv_pm": _linalg,
    "metric_ape_rpe": _metric,
}
