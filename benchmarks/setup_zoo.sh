#!/usr/bin/env bash
# The model-zoo libraries of benchmarks/calibrate_zoo.py (issue 19), pinned, never touching torch:
# each torch-dependent library with --no-deps, then its pure dependencies by hand.
set -euo pipefail
python -m pip install --no-deps monai==1.6.1 x-transformers==2.31.10 kornia==0.9.0 \
    vector-quantize-pytorch==1.32.0 torch_geometric==2.8.1 e3nn==0.6.0 \
    torch-einops-utils==0.2.0 opt_einsum_fx==0.1.4
python -m pip install einops==0.8.2 einx==0.4.3 loguru==0.7.3 frozendict==2.5.1 opt_einsum==3.4.0 \
    kornia_rs==0.2.0 psutil==7.2.2 xxhash==4.1.0 aiohttp==3.14.5 numpy scipy sympy fsspec jinja2 \
    pyparsing requests tqdm
# vit-pytorch (its package imports torchvision.transforms in dino.py: the adapter stubs it, never install it)
# and gpytorch with linear_operator (scikit-learn, which gpytorch lists, is not needed by the zoo models)
python -m pip install --no-deps vit-pytorch==1.26.11 gpytorch==1.15.2 linear-operator==0.6.1 \
    jaxtyping==0.3.11 wadler-lindig==0.1.8
# stop 27: three libraries added after the rules of stops 23-26 (first-contact numbers in RESULTS §21)
python -m pip install --no-deps zuko==1.6.0 fair-esm==2.0.0 torchdiffeq==0.2.5
python -m pip install mpmath scipy
# stop 29: two vision libraries, measured first as they came (RESULTS §23); segment-anything
# imports torchvision at the top: its adapter stubs it (never installed)
python -m pip install --no-deps pytorchcv==0.0.74 segment-anything==1.0 efficientnet_pytorch==0.7.1
python -m pip install requests
# denoising-diffusion-pytorch imports torchvision, accelerate and pytorch-fid at the top: its adapter stubs them
python -m pip install --no-deps denoising-diffusion-pytorch==2.3.4 ema-pytorch==0.8.3
python -m pip install einops==0.8.2 pillow tqdm
# stop 31: four libraries measured first as they came (RESULTS §25); none needs more than numpy,
# scipy and tqdm (above), and none imports a held-out package
python -m pip install --no-deps pytorch-metric-learning==2.9.0 snntorch==1.0.0 normflows==1.7.3 pytorch-tabnet==4.1.0
# stop 33: two lucidrains attention libraries measured first as they came (RESULTS §27)
python -m pip install --no-deps reformer-pytorch==1.4.4 performer-pytorch==1.1.4 axial-positional-embedding==0.3.12 \
    local-attention==1.11.2 product-key-memory==0.3.0 hyper-connections==0.4.11 colt5-attention==0.11.2
python -m pip install packaging
# stop 34: four libraries measured first as they came (RESULTS §28): neural operators, liquid
# time-constant RNNs, SDE solvers, probabilistic flows; numpy, scipy, opt_einsum and tqdm are above
python -m pip install --no-deps neuraloperator==2.0.0 tensorly==0.10.0 tensorly-torch==0.5.0 ncps==1.0.1 \
    torchsde==0.2.6 trampoline==0.1.2 pyro-ppl==1.9.2 pyro-api==0.1.2
# stop 35: three libraries measured first as they came (RESULTS §29): U-Net blocks for diffusion,
# a linear-chain CRF, reinforcement-learning policies; einops is above (a-unet's only other import)
python -m pip install --no-deps a-unet==0.0.16 pytorch-crf==0.7.2 stable-baselines3==2.9.2 gymnasium==1.2.2 \
    cloudpickle==3.1.3 farama-notifications==0.0.6
# stop 36: four libraries measured first as they came (RESULTS §30): metrics, flows, spiking
# networks, neural-network potentials; nflows imports matplotlib and torchani h5py at the top
# (their adapters stub them), torchani's huggingface_hub is only for downloads
python -m pip install --no-deps torchmetrics==1.9.0 lightning-utilities==0.15.3 nflows==0.14 spikingjelly==2.0.0 \
    torchani==2.9.0 huggingface_hub==0.36.0
# stop 37: audio spectrogram layers and neural CDEs, measured first as they came (deps above)
python -m pip install --no-deps nnAudio==0.3.4 torchcde==0.2.5
# stop 37: litgpt measured first as it came (lightning for litgpt.utils, safetensors for the converter model.py imports)
python -m pip install --no-deps litgpt==0.5.13 lightning==2.6.6 safetensors==0.8.0
# stop 37: pytorch-forecasting measured first as it came (v1 networks over a TimeSeriesDataSet; nothing stubbed)
python -m pip install --no-deps pytorch-forecasting==1.8.0 lightning==2.6.6 scikit-base==1.0.2 pandas==3.0.6 \
    scikit-learn==1.9.1 joblib==1.6.0 threadpoolctl==3.8.0 narwhals==2.29.0
# stop 37: mambapy measured first as it came (pure-PyTorch Mamba, Jamba, Vim; its adapter stubs the CUDA mamba_ssm)
python -m pip install --no-deps mambapy==1.2.0
# stop 37: rotary-embedding-torch measured first as it came (its only other import, einops, is above)
python -m pip install --no-deps rotary-embedding-torch==0.9.1
# stop 37: mace-torch measured first as it came (e3nn, opt_einsum, torchmetrics above; its adapter stubs matplotlib, h5py, lmdb)
python -m pip install --no-deps mace-torch==0.3.16 torch-ema==0.3 ase==3.29.0 matscipy==1.3.1 prettytable==3.18.0
# stop 38: EEG decoders and CTR models, measured first as they came (RESULTS §32); braindecode's
# adapter stubs torchaudio (no wheel loads beside torch 2.13), h5py, mne_bids and wfdb;
# skorch is installed (braindecode builds a docstring from it at import)
python -m pip install --no-deps braindecode==1.8.1 mne==1.13.2 lazy-loader==0.6 pooch==1.9.0 skorch==1.4.0 \
    tabulate==0.10.0 docstring-inheritance==3.0.0 torchinfo==1.8.0 linear-attention-transformer==0.19.1 \
    linformer==0.2.3 deepctr-torch==0.3.0
# stop 38: speech recognition and diffusion samplers, measured first as they came (RESULTS §32):
# whisper's timing.py imports numba at the top; k-diffusion's adapter stubs torchvision, clean-fid,
# clip and skimage (torchdiffeq, torchsde, einops, scipy, safetensors are above)
python -m pip install --no-deps openai-whisper==20250625 tiktoken==0.14.0 numba==0.68.1 llvmlite==0.50.0 \
    k-diffusion==0.1.1.post1 jsonmerge==1.9.2 dctorch==0.1.2
# stop 44: probabilistic models and time-series networks, measured first as they came (RESULTS §38):
# pomegranate's apricot-select (pure Python; its `nose` requirement is never imported), gluonts'
# torch networks (lightning, pandas, networkx, scikit-learn above; it asks for pandas < 3, 3.0.6 works)
python -m pip install --no-deps pomegranate==1.1.2 apricot-select==0.6.1 gluonts==0.17.0
python -m pip install toolz==1.2.0 pydantic==2.13.4
# stop 44: xLSTM (NX-AI) measured first as it came: its pure-PyTorch backends only; xlstm_large
# imports mlstm_kernels at the top (pure Python; its Triton kernels are skipped without Triton)
python -m pip install --no-deps xlstm==2.0.6 mlstm_kernels==2.0.6
# stop 44: kymatio's scattering transforms (torch frontend; its appdirs / configparser requirements
# are never imported; its adapter aliases scipy.special.sph_harm, which scipy 1.17 removed)
python -m pip install --no-deps kymatio==0.3.0
# stop 44: botorch measured first as it came: 0.17.2 is the newest that accepts gpytorch 1.15.2,
# linear_operator 0.6.1 and pyro-ppl 1.9.2 (above; 0.18 swaps pyro for jax and numpyro)
python -m pip install --no-deps botorch==0.17.2 pyre-extensions==0.0.32 multipledispatch==1.0.0 typing-inspect==0.9.0 \
    mypy-extensions==1.1.0
# stop 45: sbi measured first as it came (nflows, zuko, pyro-ppl, skorch, scikit-learn above): it imports
# torch.utils.tensorboard at the top (tensorboard, protobuf, absl-py); its adapter stubs matplotlib
python -m pip install --no-deps sbi==0.27.0 tensorboard==2.21.0 protobuf==7.36.2 absl-py==2.5.1
# (mace-torch and pytorch-forecasting install their own top-level `tests` package into site-packages:
# compilelint's tests import their helpers as `conftest`, never `tests.conftest`, so they are not shadowed)
# stop 45: torchode's batched ODE solvers, measured first as it came: torchtyping imports typeguard
# at the top (0.1.5 pins typeguard < 3); sympy comes with torch
python -m pip install --no-deps torchode==1.0.1 torchtyping==0.1.5 typeguard==2.13.3
# stop 46: pytorch-widedeep's wide & deep models, measured first as it came: its text utilities import spaCy
# (and through spaCy's CLI weasel, typer, httpx) and gensim at the top; its adapter stubs torchvision,
# cv2 and transformers (pandas, scikit-learn, scipy, einops, torchmetrics, tqdm, pydantic are above;
# wrapt, click and rich come with the machine and compilelint)
python -m pip install --no-deps pytorch-widedeep==1.7.0 spacy==3.8.18 thinc==8.3.14 blis==1.3.4 cymem==2.0.16 \
    preshed==3.0.15 murmurhash==1.0.16 srsly==2.5.6 catalogue==2.0.10 wasabi==1.1.3 weasel==1.0.1 \
    confection==1.3.4 cloudpathlib==0.26.0 smart-open==9.0.2 spacy-legacy==3.0.12 spacy-loggers==1.0.5 \
    typer==0.29.1 annotated-doc==0.0.6 shellingham==1.5.4 httpx==0.28.1 httpcore==1.0.9 h11==0.16.0 \
    anyio==4.16.0 gensim==4.4.0
# stop 46: pykeen's knowledge-graph embedding models, measured first as it came (numpy, scipy, pandas,
# scikit-learn, tabulate, torch_geometric above; click, tqdm, requests, pyyaml come with the machine; its
# optuna, dataclasses-json and click-default-group are for HPO and the CLI, never imported; nothing stubbed)
python -m pip install --no-deps pykeen==1.11.1 class-resolver==0.8.2 docdata==0.0.5 pystow==0.10.3 \
    more-click==0.1.3 torch-ppr==0.0.8 torch-max-mem==0.1.6 more-itertools==11.2.1
# stop 47: DeepInverse (deepinv) imaging inverse problems, measured first as it came: it imports torchvision at the
# top (held out; its adapter stubs it, so Rotate and the dataset/plotting helpers are never used); natsort (datasets)
# and h5py (datasets/skmtea.py) are imported at the top; numpy, scipy, einops, torchmetrics, tqdm, requests, pillow
# are above; matplotlib is only imported inside plotting functions (never called)
python -m pip install --no-deps deepinv==0.5.0 natsort==8.4.0 h5py==3.16.0
# stop 47: RecBole's recommenders (general, sequential, context-aware, knowledge-aware), measured first as it
# came: colorlog (pinned by recbole) and texttable are imported at its top; faiss-cpu runs NCL's E-step k-means
# (numpy, scipy, pandas, scikit-learn, tqdm, pyyaml, colorama, tabulate, psutil, tensorboard above; thop, plotly,
# xgboost, lightgbm are never imported on the adapter's paths; its adapter stubs ray, which quick_start imports)
python -m pip install --no-deps recbole==1.2.1 colorlog==4.7.2 texttable==1.7.0 faiss-cpu==1.15.1
# stop 54: entmax (sparse softmax mappings and their losses), pykan (Kolmogorov-Arnold networks; its matplotlib
# imports are stubbed by the adapter; sympy, scikit-learn, pandas, pyyaml, tqdm above) and dynamic-network-architectures
# (nnU-Net's U-Nets; numpy above, its einops/timm modules unused), each measured first as it came
python -m pip install --no-deps entmax==1.3 pykan==0.2.8 dynamic-network-architectures==0.4.4
# stop 54: FrEIA (invertible networks), bayesian-torch (Bayesian layers; scikit-learn above), torchkbnufft (MRI
# non-uniform FFTs) and auraloss (audio losses; librosa for its mel filterbank: numba, lazy-loader, pooch and
# joblib are above), each measured first as it came
python -m pip install --no-deps FrEIA==0.2 bayesian-torch==0.5.0 torchkbnufft==1.5.2 auraloss==0.4.0 librosa==0.11.0 \
    decorator==5.2.1 msgpack==1.2.4
# stop 54: ptwt (wavelet transforms; PyWavelets), geoopt (Riemannian manifolds in hyperbolic layers), torch-harmonics
# (spherical harmonics, DISCO convolutions, spherical neural operators: its 0.9.3 wheel names torch>=2.14 in its metadata
# but its extensions load on 2.13 with --no-deps) and perceiver-pytorch (einops above), each measured first as it came
python -m pip install --no-deps ptwt==1.0.1 pywavelets==1.9.0 geoopt==0.5.1 torch-harmonics==0.9.3 perceiver-pytorch==0.11.0
# stop 55: norse (spiking networks; nir, nirtorch), opacus (differentially private training: grad-sample hooks,
# DP layers, DP-SGD steps), deepxde (physics-informed networks; scikit-optimize), pytorch-tcn (temporal convolutional
# networks), egnn-pytorch (E(n)-equivariant graph networks; torch-geometric above) and encodec (neural audio codec;
# einops above), each measured first as it came
python -m pip install --no-deps norse==1.1.0 nir==1.0.1 nirtorch==1.0 opacus==1.6.0 deepxde==1.15.0 \
    scikit-optimize==0.10.2 pytorch-tcn==1.2.3 egnn-pytorch==0.2.8 encodec==0.1.1
# stop 55, a second batch measured first as it came: st-moe-pytorch (mixture-of-experts routing; beartype, colt5 and
# the rest above), asteroid-filterbanks (learnable audio filterbanks; librosa above), roma (3D rotations) and julius
# (audio resampling and filters)
python -m pip install --no-deps st-moe-pytorch==0.1.8 beartype==0.22.9 asteroid-filterbanks==0.4.0 roma==1.8.0 \
    julius==0.2.8
# stop 56, measured first as they came: flow-matching (flow-matching paths, ODE and discrete solvers; torchdiffeq
# above), pfrl (RL: Q-functions, policies, agents' losses; gym), skrl (RL: model mixins, instantiators, agents' act
# and losses; gymnasium, tensorboard above) and snac (multi-scale neural audio codec; einops above)
python -m pip install --no-deps flow_matching==1.0.10 pfrl==0.4.0 gym==0.26.2 gym-notices==0.1.0 skrl==2.1.1 \
    snac==1.2.1
# stop 56: openunmix (music source separation: Open-Unmix, its STFT and Wiener filter; its adapter stubs torchaudio)
python -m pip install --no-deps openunmix==1.3.0
# stop 56: demucs (music source separation: Demucs, HDemucs, HTDemucs, the solver's augmentations and losses,
# apply_model; julius, einops and tqdm above)
python -m pip install --no-deps demucs==4.1.0
# stop 56, a second batch measured first as it came: torchlibrosa (STFT, log-mel, SpecAugment, PANNs front ends;
# librosa above) and vocos (Fourier-based vocoder; encodec, einops, huggingface-hub above; its adapter stubs torchaudio
# and restores scipy's removed `signal.cosine` alias while building)
python -m pip install --no-deps torchlibrosa==0.1.0 vocos==0.1.0
# stop 56, batch 2: d3rlpy (offline RL: encoders, Q-functions, policies, the algorithms' losses; structlog,
# dataclasses-json and marshmallow; gym, gymnasium, h5py, scikit-learn and the rest above) and e2cnn (E(2)-equivariant
# steerable CNNs; scipy and sympy above; its adapter patches four numpy-2 / torch-2 incompatibilities of its
# model-building code while building)
python -m pip install --no-deps d3rlpy==2.8.1 structlog==26.1.0 dataclasses-json==0.6.7 marshmallow==3.26.1 \
    typing-inspect==0.9.0 mypy-extensions==1.1.0 h5py==3.16.0 colorama==0.4.6 e2cnn==0.2.3
# stop 56, a third batch measured first as it came with the end-of-stop pass: torchcrepe (CREPE pitch tracking;
# librosa, scipy above; resampy), sb3-contrib (RL algorithms beside stable-baselines3's) and pytorch-wavelets
python -m pip install --no-deps torchcrepe==0.0.24 resampy==0.4.3 sb3-contrib==2.9.2 pytorch-wavelets==1.3.0
python -c "import torch; print('torch', torch.__version__, '(unchanged)')"
# stop 57: first contact: pytorch-optimizer (optimizers, wrappers and losses; compiled optimizer and train steps)
python -m pip install --no-deps pytorch_optimizer==4.1.0
# stop 57: first contact: rsl-rl-lib (PPO / distillation for legged robots: models, rollout, update, RND, symmetry;
# tensordict is pure Python since 0.15 and needs pyvers; numpy, cloudpickle above)
python -m pip install --no-deps rsl-rl-lib==5.5.1 tensordict==0.15.3 pyvers==0.2.2
# stop 57: first contact: diffsptk (differentiable speech signal processing; torchlpc and torchcomp for its all-pole
# filters and DRC; scipy, mpmath, tqdm, vector-quantize-pytorch above; its adapter stubs torchaudio and soundfile) and
# torch-rechub (recommendation models: ranking, matching, multi-task; numpy, pandas, scikit-learn, tqdm above)
python -m pip install --no-deps diffsptk==4.0.1 torchlpc==0.6 torchcomp==0.2.1 torch-rechub==0.9.0
# stop 58: first contact: pypots (partially-observed time series: the model cores of its imputation, forecasting,
# classification, clustering and anomaly-detection models; pygrinder, tsdb, benchpots and ai4ts are pure Python;
# numpy, scipy, sympy, einops, pandas, h5py, scikit-learn, tensorboard above; its adapter stubs nonlinear_benchmarks
# and transformers)
python -m pip install --no-deps pypots==1.5 pygrinder==0.7 tsdb==0.8 benchpots==1 ai4ts==0.0.3
# stop 58: first contact: bs-roformer (BS-RoFormer, Mel-Band RoFormer and FlowBSRoformer music source separation;
# pope-pytorch is pure Python; beartype, einops, einx, hyper-connections, librosa, rotary-embedding-torch and
# torch-einops-utils above)
python -m pip install --no-deps bs-roformer==1.2.4 pope-pytorch==0.2.1
# stop 58: first contact: torchsurv (survival-analysis losses: Cox, Weibull, survival; C-index, AUC, Brier score,
# IPCW, Kaplan-Meier; numpy, scipy, pydantic, torchmetrics, pandas above)
python -m pip install --no-deps torchsurv==0.2.0
# stop 59: first contact: tabpfn (TabPFN v2 / v2.5 / v2.6 / v3 / v3.5 architectures from small random configs, the
# fine-tuning losses, the bar distribution, the torch GPU preprocessing; numpy, scipy, pandas, scikit-learn, einops,
# pydantic, pydantic-settings, safetensors, huggingface-hub, joblib, tqdm, filelock above; its adapter stubs skrub) and
# pytorch-frame (torch_frame: FTTransformer, ResNet, TabNet, TabTransformer, Trompt, ExcelFormer, MLP, convolutions,
# decoders, stype encoders on a FakeDataset TensorFrame; numpy, pandas, tqdm, pillow, scikit-learn above)
python -m pip install --no-deps tabpfn==9.2.0 pytorch-frame==0.3.0
# stop 59: first contact: stanza (Stanford NLP pipeline models: tagger, parsers, NER, tokenizer, MWT, lemmatizer,
# sentiment, constituency, langid, charlm; emoji, udtools, udapi, termcolor are pure Python, imported by `import stanza`;
# numpy, networkx, orjson, platformdirs, protobuf, requests, tqdm, regex, colorama, huggingface-hub above)
python -m pip install --no-deps stanza==1.15.0 emoji==2.16.0 udtools==0.2.9 udapi==0.5.2 termcolor==3.3.0
# stop 59: first contact: torchkge (knowledge-graph embedding models, samplers, losses, evaluators; numpy, pandas,
# tqdm above)
python -m pip install --no-deps torchkge==0.17.7
# stop 60: first contact: neuralforecast (Nixtla's model zoo: MLP, NHITS, NBEATS(x), TFT, PatchTST, TimesNet,
# iTransformer, TSMixer(x), DeepAR, DilatedRNN, TCN, BiTCN, KAN, SOFTS, TimeMixer, StemGNN, TimeXer, ...; pandas,
# numpy, scipy, fsspec, safetensors, narwhals, torchmetrics, lightning-utilities, xlstm above; its adapter stubs ray)
python -m pip install --no-deps neuralforecast==3.3.0 pytorch-lightning==2.6.6 utilsforecast==0.2.17 coreforecast==0.0.20
# stop 60: first contact: speechbrain (ASR, LMs, speaker, separation, enhancement, TTS, vocoders, building blocks;
# numpy, scipy, joblib, tqdm, PyYAML, huggingface-hub above; its adapter stubs torchaudio: no wheel pairs with 2.13)
python -m pip install --no-deps speechbrain==1.0.3 hyperpyyaml==1.2.2 ruamel.yaml==0.18.16
# stop 61: first contact: tianshou (RL networks and algorithms: DQN family, A2C, PPO, Reinforce, DDPG, TD3, SAC, REDQ;
# gymnasium, numpy, numba, h5py, pandas above; its adapter stubs matplotlib)
python -m pip install --no-deps tianshou==2.0.1 deepdiff==7.0.1 overrides==7.7.0 sensai-utils==1.6.0 ordered-set==4.1.0 pettingzoo==1.24.3
# stop 61: first contact: pytorch_tabular (tabular models from their configs, their training_step; omegaconf 2.3.0 needs antlr4 4.9.*)
python -m pip install --no-deps pytorch_tabular==1.2.0 omegaconf==2.3.0 antlr4-python3-runtime==4.9.3
# stop 79: first contact: geotorch (constrained weights through torch.nn.utils.parametrize: orthogonal, low rank,
# positive definite, sphere, ... on Linear / Conv2d / RNN weights, the examples' orthogonal RNNs; needs only torch)
# and torch-hd (hyperdimensional computing: the VSA models' functional ops, embeddings, Centroid, the classifiers'
# fit / predict, memories; scipy, pandas, numpy, requests, tqdm above)
python -m pip install --no-deps geotorch==0.4.0 torch-hd==5.8.4
# stop 80: first contact: captum (attribution algorithms, their layer and neuron forms, perturbation methods,
# FGSM / PGD, metrics; imports matplotlib at its top), pyod (deep anomaly detectors: their networks, per-batch
# training steps and scoring; numba, scikit-learn above) and torch-struct (structured distributions over semirings:
# linear-chain and semi-Markov CRFs, dependency and constituency trees, HMMs; needs only torch)
python -m pip install --no-deps captum==0.9.0 pyod==3.6.7 torch-struct==0.5
python -m pip install --no-deps matplotlib==3.11.2 contourpy==1.3.3 cycler==0.12.1 fonttools==4.68.0 kiwisolver==1.5.1
# stop 81: three libraries measured first as they came (RESULTS §72); sinabs stubs samna (SynSense's
# device SDK), torch-geometric-temporal stubs torch_sparse (a class annotation only)
python -m pip install --no-deps brevitas==0.13.4 dependencies==2.0.1 unfoldNd==0.2.3 \
    sinabs==3.1.3 pbr==7.1.3 nir==1.0.1 nirtorch==1.0 torch-geometric-temporal==0.56.2
# stop 83: first contact: darts (unit8's forecasting models, built through its own fit set-up: RNN / BlockRNN,
# N-BEATS / N-HiTS, TCN, Transformer, TFT, D/NLinear, TiDE, TSMixer, the tiny foundation models; pandas,
# pytorch-lightning above). peft, also first contact in stop 83, is not in the zoo: it needs transformers in this
# environment (see benchmarks/calibration/zoo-stop83/first-contact/peft/)
python -m pip install --no-deps darts==0.48.1 holidays==0.109 xarray==2026.9.0
# stop 84: first contact: linear_operator (gpytorch's structured matrices, installed above with it: dense,
# diagonal, Kronecker, low-rank root, Toeplitz, interpolated, triangular, Cholesky and their solves, logdets and
# root decompositions) and pycox (survival models on torchtuples: Cox, DeepHit, logistic hazard, PMF, MTLR and
# their losses; numpy, pandas, numba, h5py and scikit-learn above)
python -m pip install --no-deps pycox==0.3.0 torchtuples==0.2.2
# stop 85: first contact: asteroid (speech separation: ConvTasNet, DPRNN, DPTNet, SuDORMRF, LSTM-TasNet, FasNet-TAC,
# DCUNet, DeMask, their maskers, the PIT / MixIT losses and System.common_step; asteroid-filterbanks, julius,
# pytorch-lightning, torchmetrics above)
python -m pip install --no-deps asteroid==0.7.0 soundfile==0.13.1 torch-optimizer==0.1.0 pytorch-ranger==0.1.1
# stop 85: first contact: tsl (torch-spatiotemporal: spatiotemporal graph models for forecasting and imputation,
# their layers, the Predictor / Imputer training steps and masked metrics; torch_geometric, lightning, torchmetrics,
# einops above; its adapter stands in for the compiled torch_sparse and torch_scatter)
python -m pip install --no-deps torch-spatiotemporal==0.9.5
# stop 85: first contact: torchdyn (neural differential equations: NeuralODE with each solver and sensitivity,
# augmentation and data-control layers, Galerkin layers, CNF / HNN / LNN, odeint and its symplectic, hybrid
# and multiple-shooting forms; torchsde, torchcde, pytorch-lightning, attrs, scipy above)
python -m pip install --no-deps torchdyn==1.0.6
# stop 85: first contact: hummingbird-ml (scikit-learn models converted to tensor programs: trees with each strategy,
# linear models, SVMs, KNN, naive Bayes, MLP, scalers, encoders, polynomial features, pipelines; scikit-learn,
# psutil above) and laplace-torch (Laplace approximations: full / Kron / diagonal / last-layer / subnetwork /
# functional, their predictives and marginal likelihoods, with the curvlinops, BackPACK and ASDL backends)
python -m pip install --no-deps hummingbird-ml==0.4.12 onnxconverter-common==1.14.0 onnx==1.16.1 dill==0.4.1
python -m pip install --no-deps laplace-torch==0.3 curvlinops-for-pytorch==3.0.1 backpack-for-pytorch==1.7.1 \
    asdfghjkl==0.1a4 einconv==0.1.0
# stop 86: first contact: pypose (Lie groups as LieTensor and their ops, IMU preintegration, EKF / UKF / PF filters,
# LQR / MPC, the GN / LM solvers and their kernels and correctors; pytest above), pythae (autoencoder zoo: VAE and
# its variants, VQ-VAE, the Wasserstein, adversarial, Riemannian-Hamiltonian and Poincaré ones, the IAF / MAF /
# planar / radial flows and their losses; pydantic, cloudpickle, scikit-learn above), torchquad (numerical
# integration: Newton-Cotes, Gaussian, Monte Carlo and VEGAS integrators in modules that integrate their parameters;
# loguru, scipy above), cebra (contrastive encoders, InfoNCE criterions and the solvers' training steps; matplotlib,
# requests, scikit-learn, joblib above) and tensorly-torch (factorized linear, convolution and embedding layers,
# TRL / TCL, tensor dropout and lasso; tensorly-torch and tensorly are installed above with neuraloperator)
python -m pip install --no-deps pypose==0.9.5 pythae==0.1.2 torchquad==0.6.0 autoray==0.11.0 cebra==0.6.1 \
    literate-dataclasses==0.0.6
# stop 86, second round: first contact: schnetpack (atomistic networks: SchNet, PaiNN, SO3net, FieldSchNet, their
# output heads, response properties and AtomisticTask's loss; ase, matscipy, h5py, lightning, torchmetrics, torch-ema
# above), pina (physics-informed solvers, neural operators, LabelTensor and its differential operators; lightning,
# torch_geometric above), pytorch-minimize (BFGS, L-BFGS, CG, Newton and trust-region minimizers, least squares,
# constrained solvers and its optimizer wrappers; scipy above), torchcfm (conditional flow matchers, their OT plan
# samplers and UNet / MLP velocity fields; torchdyn, torchdiffeq above) and evotorch (evolutionary searchers, their
# distributions, operators and neuroevolution parsers; gymnasium, cma above; its adapter stands in for ray)
python -m pip install --no-deps schnetpack==2.1.1 dirsync==2.2.6 fasteners==0.20 pina-mathlab==0.3.2.post2610 \
    pytorch-minimize==0.1.0 torchcfm==1.0.7 pot==0.9.7.post1 evotorch==0.6.1
# stop 87: first contact: rwkv (the RWKV language model, v4 to v7, with and without TorchScript, its int8 / bf16 /
# streamed strategies and the sampling pipeline), torchgfn (GFlowNets: HyperGrid, DiscreteEBM, Box, BitSequence and
# diffusion environments, their estimators and the TB / DB / SubTB / FM losses; tensordict, torch_geometric,
# linear-attention-transformer above), chemprop (molecular message passing: bond / atom MPNNs, aggregations, the
# predictors and criteria, multicomponent and reaction models; lightning, torchmetrics above), mambular (tabular
# models: Mambular, MambaTab, FTTransformer, TabTransformer, SAINT, TabM, NODE, NDTF and others in their Lightning
# task model; mambapy above) and nequip (E(3)-equivariant interatomic potentials and their Lightning training step;
# e3nn, ase, matscipy, lightning, torchmetrics above)
python -m pip install --no-deps rwkv==0.8.32 torchgfn==2.4.1 chemprop==2.3.1 rdkit==2026.3.6 \
    cuik_molmaker_pin==2026.3.6 descriptastorus==2.8.0 multiprocess==0.70.19 astartes==1.3.3 configargparse==1.9.0 \
    pandas-flavor==0.8.1 mambular==1.5.1 pretab==0.0.1 properscoring==0.1 nequip==0.19.1 hydra-core==1.3.8
# stop 87, second round: first contact: tntorch (tensor trains: TT / Tucker / CP tensors, their arithmetic,
# metrics, cross approximation and TT-matrix layers; scipy above), pytorch-kinematics (robot chains from URDF / SDF
# strings, forward kinematics, Jacobians, IK solvers, Transform3d and rotation conversions), speechtokenizer (SEANet
# codec with residual vector quantization and its losses; its adapter stands in for torchaudio), torchattacks
# (adversarial attacks on a small CNN: FGSM, PGD and its targeted modes, CW, DeepFool, APGD, FAB, Square, AutoAttack
# and the rest; scipy above) and blitz-bayesian-pytorch (Bayesian layers and `sample_elbo`)
python -m pip install --no-deps tntorch==1.1.2 pytorch-kinematics==0.10.0 lxml==6.2.1 arm-pytorch-utilities==0.5.0 \
    pytorch-seed==0.2.0 speechtokenizer==1.0.1 lion-pytorch==0.2.5 accelerate==1.15.0 torchattacks==3.5.1 \
    blitz-bayesian-pytorch==0.2.8
# stop 89: geomloss (optimal-transport losses), torch-audiomentations (waveform augmentations; julius above, its
# torchaudio imports stubbed by the adapter), torchdeq (deep-equilibrium layers), piq (image-quality metrics; its
# torchvision imports stubbed by the adapter, never installed) and audio-diffusion-pytorch (a-unet above)
python -m pip install --no-deps geomloss==0.3.1 torch-audiomentations==0.12.0 julius==0.2.8 torch-pitch-shift==1.2.5 \
    primePy==1.3 torchdeq==0.1.0 piq==0.8.0 audio-diffusion-pytorch==0.1.3 audio-encoders-pytorch==0.0.22 \
    einops-exts==0.0.4
# stop 90: flowtorch (bijectors and flows: sample, log_prob and their losses), torch-kmeans (k-means, constrained and
# soft k-means, KNN on batches), neuralhydrology (its model zoo built from test configs, its losses; xarray, pandas,
# numba and ruamel.yaml above), neurodiffeq (networks, conditions, the solvers' residual losses) and zennit
# (attributors, composites, rules and canonizers on small user models; its torchvision imports stubbed by the
# adapter, never installed)
python -m pip install --no-deps flowtorch==0.8 torch-kmeans==0.2.0 neuralhydrology==1.13.0 neurodiffeq==0.7.0 \
    seaborn==0.13.2 zennit==0.5.1
# stop 91: pykt-toolkit (knowledge-tracing models: its own model_forward and evaluate calls), torchcvnn
# (complex-valued layers, transformers and its examples' models; its datasets, which import torchvision,
# never imported), torch-geometric-signed-directed (signed and directed GNNs and their losses on the
# library's own synthetic graphs; torch_geometric above), torchensemble (the ensembles' forward and one
# batch of their own fit loops on small base estimators) and equiformer-pytorch (its model and blocks)
python -m pip install --no-deps pykt-toolkit==0.0.38 torchcvnn==0.10.0 torch-geometric-signed-directed==1.2.0 \
    torchensemble==0.2.0 equiformer-pytorch==0.5.4 taylor-series-linear-attention==0.2.0
# stop 92: elegantrl (RL networks and agents: action selection, one update's losses), hypll (hyperbolic
# manifolds, layers and its tutorials' networks), torchphysics (PINN, DeepRitz, DeepONet and FNO problems:
# the model forward and one training step of its conditions), tabicl (the TabICL model and its blocks; its
# transformers and xgboost imports stubbed by the adapter) and graph-pes (interatomic potentials:
# predict and one training step of its losses; lmdb stubbed)
python -m pip install --no-deps elegantrl==0.3.6 hypll==0.1.1 torchphysics==1.1.2 tabicl==2.2.0 graph-pes==1.0.2 \
    vesin==0.6.2 load-atoms==0.3.10 locache==4.0.2 data2objects==0.1.0 dacite==1.9.2 huggingface-hub==0.36.0
# stop 92, second round: ctgan (CTGAN and TVAE: sampling and one step's losses), imitation (reward nets,
# BC, adversarial discriminators, preference models on stable-baselines3), orb-models (Orb potentials:
# predict and the training loss; cached_path stubbed), torch-uncertainty (uncertainty layers, models,
# wrappers, post-processors and routines' training steps; its torchvision and timm imports stubbed by
# the adapter, never installed) and sevenn (SevenNet on e3nn and torch_geometric: prediction and losses)
python -m pip install --no-deps ctgan==0.12.1 rdt==1.18.2 Faker==37.12.0 imitation==1.0.1 orb-models==0.5.5 \
    dm-tree==0.1.8 torch-uncertainty==0.13.0 sevenn==0.13.0 braceexpand==0.1.7
# stop 93: labml-nn (its paper implementations' models and training losses; torchvision, torchtext and
# fairscale stubbed by the adapter, never installed; labml pinned to the release its attention calls),
# torchdr (affinities, neighbour embeddings and spectral estimators: fit_transform and one training step
# of an encoder), torch-ecg (ECG models, backbones, losses and augmenters from its default configs),
# neuromancer (blocks, nodes, systems and problems: the rollout and its penalty losses; wandb stubbed) and
# torchjd (aggregators, Jacobian-descent training steps, autogram and scalarizers)
python -m pip install --no-deps labml-nn==0.5.1 labml==0.4.168 gitpython==3.1.45 gitdb==4.0.12 smmap==5.0.2 \
    torchdr==0.5 neuromancer==1.5.6 plum-dispatch==1.7.3 pydot==1.4.2 pyts==0.13.0 torchjd==0.18.0 \
    quadprog==0.1.13 qpsolvers==4.8.1 cvxpy-base==1.9.3 qdldl==0.1.9.post1 sparsediffpy==0.6.1 clarabel==0.11.1 \
    ecos==2.0.14
python -m pip install --no-deps torch-ecg==0.0.33 biosppy==2.2.4 peakutils==1.3.5 bib-lookup==0.1.4 \
    feedparser==6.0.14 feedparser-sgmllib==2.1.0 beautifulsoup4==4.15.0 soupsieve==4.1.4 pybtex==0.26.1 \
    latexcodec==3.0.1 deprecated==1.3.1 deprecate-kwargs==0.1.1 easydict==1.14 wfdb==4.3.1 tensorboardX==2.6.5 \
    edfio==0.4.18
