"""What compilelint knows about library callables under Dynamo, as data: ops whose output
size depends on their input's values, C functions Dynamo cannot trace, functions Dynamo
skips or refuses, and RNG calls. One row (`Entry`) per family of names that Dynamo treats
the same way, each with the rule that reports it, the torch releases it holds for, Dynamo's
graph-break id and reason, and the corpus case (fixtures/corpus) that confirms it.

The rules read it through `table(code, version)`; docs/knowledge.md is rendered from it
(`python -m compilelint.knowledge_gen`). Plain data: no libcst, no torch.
"""

from __future__ import annotations

from functools import lru_cache

from compilelint.knowledge_classes import LR_SCHEDULERS, OPTIMIZER_BASES, OPTIMIZERS, TQDM_CLASSES
from compilelint.knowledge_entry import Entry, Table  # noqa: F401 (Entry: what the rows are, for readers of this module)
from compilelint.knowledge_nn import GAUSSIAN_NLL, TRANSFORMER_MASKS
from compilelint.knowledge_numpy import (NUMPY_LINALG_UNSUPPORTED, NUMPY_LISTED_WITH, NUMPY_RANDOM_OTHER,  # noqa: F401
                                        NUMPY_RNG_CLASSES, NUMPY_UNSUPPORTED)

CATEGORIES = {
    "dynamic-output-size": "the op's output size depends on its input's values",
    "c-function": "a C function Dynamo cannot look into",
    "skipped": "a Python function or builtin Dynamo marks as skipped",
    "untraceable": "something Dynamo refuses or fails to trace",
    "rng": "reads or sets random-number state Dynamo does not model",
}
FORMS = ("call", "instance", "method", "branch", "input", "dispatch")


# gym's and gymnasium's space helpers: `functools.singledispatch` functions (measured on gym 0.26.2, gymnasium 1.2.2)
SPACE_UTILS = ("flatdim", "flatten", "unflatten", "flatten_space")
VECTOR_UTILS = ("batch_space", "concatenate", "create_empty_array", "iterate", "batch_differing_spaces")


def _names(prefix: str, *fns: str) -> tuple[str, ...]:
    return tuple(f"{prefix}.{fn}" for fn in fns)


def _methods(classes: tuple[str, ...], *methods: str) -> tuple[str, ...]:
    return tuple(f"{cls}.{m}" for cls in classes for m in methods)


# torchvision's wheels link the CUDA libtorch: on the CPU torch 2.13 wheel `import torchvision`
# 0.28.0 fails ("operator torchvision::nms does not exist") and accuracy.py skips these cases.
# They were confirmed with torch 2.14.1 + torchvision 0.29.1 (CUDA wheels, run on CPU).
TORCHVISION_NMS = "2.14.1 (torchvision 0.29.1)"
# The releases the labelled corpus (accuracy.py) confirmed the other rows' cases on
# (benchmarks/RESULTS.md §16: 2.11.0 and 2.14.1 are CUDA wheels run on CPU).
CONFIRMED = "2.11.0, 2.13.0, 2.14.1"
ENTRIES: tuple[Entry, ...] = (
    # ---- data-dependent output sizes (CL120) ----------------------------------------------
    Entry(("torch.nonzero", "torch.Tensor.nonzero"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (aten.nonzero)", "`nonzero_static(x, size=n)` keeps the shape static",
          ("cf_dynamic_shape_01",), CONFIRMED, traced=("clean_kn_static_size_01",)),
    Entry(("torch.argwhere", "torch.Tensor.argwhere"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (aten.nonzero)", "", ("cf_dynamic_shape_03",), CONFIRMED),
    Entry(("torch.unique", "torch.functional.unique", "torch.Tensor.unique"), "dynamic-output-size",
          "CL120", "GB0036", "Dynamic shape operator (aten._unique2)", "",
          ("cf_dynamic_shape_02",), CONFIRMED),
    Entry(("torch.combinations",), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (the pairs are gathered by a mask of the index grid)",
          "2.14 traces it; `torch.triu_indices(n, n, 1)` of a known `n`, then indexing, is traced on both",
          ("kn_one_hot_01",), "2.13.0 (a break); 2.14.1 (none: the case's `[torch < 2.14]` label)",
          torch_max=(2, 14), traced=("clean_kn_one_hot_01",)),
    Entry(("torch.nn.functional.ctc_loss", "torch.ctc_loss"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (the alignment's size comes from the target lengths' values)",
          "`nn.CTCLoss` the same (CL119); compute the loss outside the compiled region, on its outputs",
          ("kn_ctc_loss_01",), "2.13.0, 2.14.1", traced=("clean_kn_ctc_loss_01",)),
    Entry(("torch.linalg.lstsq",), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (aten.linalg_lstsq: residuals, rank and singular values depend on the driver)",
          "`torch.linalg.solve` / `pinv(A) @ b` of a fixed size are traced", ("kn_lstsq_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_tensor_introspection_01",)),
    Entry(_names("numpy", "nonzero", "argwhere", "flatnonzero", "unique"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (aten.nonzero / aten.unique_dim, through torch._numpy)",
          "NumPy in a compiled region runs as torch ops, on arrays made there too (`np.zeros`); "
          "one-argument `np.where(cond)` is the same; `np.where(cond, a, b)` is traced",
          ("kn_numpy_dynamic_shape_01",), "2.13.0, 2.14.1", traced=("clean_kn_numpy_where_01",)),
    Entry(("torch.unique_consecutive", "torch.functional.unique_consecutive", "torch.Tensor.unique_consecutive"),
          "dynamic-output-size", "CL120", "GB0036", "Dynamic shape operator (aten.unique_consecutive)", "",
          ("cf_dynamic_shape_03",), CONFIRMED),
    Entry(("torch.masked_select", "torch.Tensor.masked_select"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (aten.masked_select)", "multiply by the mask instead",
          ("cf_dynamic_shape_03",), CONFIRMED, traced=("clean_kn_static_size_01",)),
    Entry(("torch.bincount", "torch.Tensor.bincount"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (aten.bincount)", "a one-hot sum has a static size",
          ("cf_dynamic_shape_03",), CONFIRMED, traced=("clean_kn_static_size_01",)),
    Entry(("torchvision.ops.nms", "torchvision.ops.boxes.nms"), "dynamic-output-size", "CL120", "GB0036",
          "Dynamic shape operator (torchvision.nms)", "the break is inside torchvision, at the call of the op",
          ("kn_torchvision_nms_01", "kn_torchvision_nms_02"), TORCHVISION_NMS),
    Entry(("torchvision.ops.batched_nms", "torchvision.ops.boxes.batched_nms"), "dynamic-output-size", "CL120",
          "GB0036", "Dynamic shape operator (torchvision.nms)",
          "calls `nms`; past 4,000 boxes on CPU it loops over the classes and the loop's frame runs eagerly",
          ("kn_torchvision_batched_nms_01",), TORCHVISION_NMS),
    Entry(("torch.ops.torchvision.nms", "torch.ops.torchvision.nms.default"), "dynamic-output-size", "CL120",
          "GB0036", "Dynamic shape operator (torchvision.nms)", "the registered op itself",
          ("kn_torchvision_op_nms_01",), TORCHVISION_NMS),
    Entry(("torchvision.ops.remove_small_boxes", "torchvision.ops.boxes.remove_small_boxes"),
          "dynamic-output-size", "CL120", "GB0036", "Dynamic shape operator (aten.nonzero, `torch.where(keep)`)",
          "`masks_to_boxes` is static in torchvision 0.28 and 0.29 (argmax, no `nonzero`): traced",
          ("kn_torchvision_remove_small_boxes_01",), TORCHVISION_NMS,
          traced=("clean_kn_torchvision_masks_to_boxes_01",)),
    # ---- the clock (CL115) ----------------------------------------------------------------
    Entry(_names("time", "time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
                 "process_time", "process_time_ns", "thread_time", "thread_time_ns", "sleep", "localtime",
                 "gmtime", "strftime", "ctime", "asctime", "mktime", "clock_gettime", "clock_gettime_ns")
          + ("timeit.default_timer",), "skipped", "CL115", "GB0007", "builtin `time.*` is skipped", "",
          ("cf_time_01", "cf_time_02", "kn_time_clock_01"), CONFIRMED, traced=("clean_kn_time_outside_01",)),
    Entry(("datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today",
           "datetime.now", "datetime.utcnow", "datetime.today", "date.today"), "untraceable", "CL115", "GB0156",
          "method `now`/`today` of class `type`", "`datetime.now` etc.: the names as written when unresolved",
          ("kn_time_datetime_01",), "2.13.0, 2.14.1 (2.11.0: Dynamo itself fails on the case, "
          "\"Guard failed on the same frame it was created\")"),
    # ---- files and streams (CL117) --------------------------------------------------------
    Entry(("builtins.open", "io.open", "os.open", "codecs.open", "gzip.open", "bz2.open", "lzma.open",
           "tarfile.open", "zipfile.ZipFile"), "untraceable", "CL117", "GB0059",
          "builtin `open`; `gzip.open` GB0156 (`type.__new__`)",
          "`with open(...)` also sends the whole frame to eager (GB0142)", ("cf_file_io_01", "kn_file_io_open_01"),
          CONFIRMED, traced=("clean_kn_time_outside_01",)),
    Entry(("os.path.exists", "os.path.lexists", "os.path.isfile", "os.path.isdir", "os.path.islink",
           "os.path.getsize", "os.path.getmtime", "os.path.getctime", "os.path.getatime", "os.path.samefile",
           "os.path.realpath", "os.listdir", "os.scandir", "os.walk", "os.stat", "os.lstat", "os.makedirs",
           "os.mkdir", "os.remove", "os.unlink", "os.rename", "os.replace", "os.rmdir", "os.removedirs",
           "os.chmod", "os.utime", "os.access", "os.fsync", "os.read", "os.write", "os.getcwd", "os.chdir"),
          "skipped", "CL117", "GB0007", "builtin `posix.*` is skipped", "`os.path.join` and friends (strings) are traced",
          ("kn_file_io_os_01",), CONFIRMED, traced=("clean_kn_path_strings_01",)),
    Entry(("tempfile.NamedTemporaryFile", "tempfile.TemporaryFile", "tempfile.mkstemp", "tempfile.mkdtemp",
           "tempfile.TemporaryDirectory", "shutil.*"), "skipped", "CL117", "GB0007",
          "inside tempfile: method `acquire` of class `lock` (GB0156); inside shutil: builtin `sys.audit` is skipped",
          "", ("kn_file_io_os_01",), CONFIRMED),
    Entry(("torch.save", "torch.load", "torch.serialization.save", "torch.serialization.load",
           "numpy.save", "numpy.savez", "numpy.savez_compressed", "numpy.savetxt", "numpy.load", "numpy.loadtxt",
           "numpy.genfromtxt", "numpy.fromfile", "json.load", "json.dump", "pickle.load", "pickle.dump",
           "safetensors.torch.save_file", "safetensors.torch.load_file"), "skipped", "CL117", "GB0007",
          "`save` is skipped; `json.dump` writes to a stream (GB0156)", "",
          ("cf_file_io_02", "kn_file_io_streams_01"), CONFIRMED),
    Entry(("sys.stdout.write", "sys.stderr.write", "sys.stdout.flush", "sys.stderr.flush", "sys.stdout.writelines",
           "sys.stderr.writelines", "sys.stdin.read", "sys.stdin.readline", "builtins.input"), "untraceable",
          "CL117", "GB0156", "method `write`/`flush` of class `TextIOWrapper`", "",
          ("kn_file_io_streams_01",), CONFIRMED),
    Entry(_names("pathlib.Path", "read_text", "read_bytes", "write_text", "write_bytes", "open", "exists",
                 "is_file", "is_dir", "is_symlink", "mkdir", "unlink", "touch", "stat", "lstat", "iterdir", "glob",
                 "rglob", "rmdir", "rename", "replace", "resolve", "samefile", "chmod", "readlink", "symlink_to",
                 "owner", "group"), "skipped", "CL117", "GB0007",
          "builtin `posix.*` is skipped; `read_text` also fails to reconstruct (GB0092)",
          "methods of a `Path` object; `read_text` sends the whole frame to eager", ("kn_file_io_path_01",),
          CONFIRMED, traced=("clean_kn_path_strings_01",)),
    # ---- C functions of the standard library (CL118) --------------------------------------
    Entry(_names("zlib", "crc32", "adler32", "compress", "decompress")
          + _names("binascii", "crc32", "crc_hqx", "hexlify", "unhexlify", "b2a_hex", "a2b_hex", "b2a_base64",
                   "a2b_base64"), "c-function", "CL118", "GB0007", "builtin `zlib.crc32` is skipped",
          "checksums of tensor bytes belong outside the region", ("kn_stdlib_c_01",), CONFIRMED),
    Entry(_names("hashlib", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "blake2s", "new"),
          "c-function", "CL118", "GB0007", "builtin `_hashlib.openssl_*` is skipped", "", ("kn_stdlib_c_01",),
          CONFIRMED),
    Entry(_names("heapq", "heappush", "heappop", "heapify", "heapreplace", "heappushpop", "nlargest", "nsmallest")
          + _names("bisect", "bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right"),
          "c-function", "CL118", "GB0007", "builtin `_heapq.*` / `_bisect.*` is skipped",
          "`torch.topk` / `torch.searchsorted` are traced", ("kn_stdlib_c_02",), CONFIRMED,
          traced=("clean_kn_topk_searchsorted_01",)),
    Entry(_names("pickle", "dumps", "loads"), "c-function", "CL118", "GB0007", "builtin `_pickle.dumps` is skipped",
          "a memoising decorator's cache key (gpytorch's `@cached`): key on a tuple of Python values",
          ("kn_pickle_01",), "2.13.0, 2.14.1"),
    Entry(("os.urandom", "uuid.uuid4", "uuid.uuid1"), "c-function", "CL118", "GB0007",
          "builtin `posix.urandom` is skipped", "", ("kn_stdlib_c_02",), CONFIRMED),
    # ---- random-number state (CL119) ------------------------------------------------------
    Entry(("torch.manual_seed", "torch.random.manual_seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
           "torch.cuda.random.manual_seed", "torch.cuda.random.manual_seed_all", "torch.get_rng_state", "torch.set_rng_state", "torch.random.get_rng_state", "torch.random.set_rng_state"),
          "rng", "CL119", "GB0007", "`manual_seed` is marked as skipped",
          "seed (or save and restore RNG state) before the compiled call", ("kn_manual_seed_01", "kn_manual_seed_03"), CONFIRMED,
          traced=("clean_kn_torch_rng_01",)),
    Entry(("torch.initial_seed", "torch.random.initial_seed"), "rng", "CL119", "GB0208",
          "torch.* op returned non-Tensor", "", ("kn_manual_seed_01",), CONFIRMED),
    Entry(("torch.Generator",), "rng", "CL119", "GB0363", "an opaque object was created in the middle of the program",
          "create generators outside the region and pass them in", ("kn_manual_seed_02",), CONFIRMED),
    Entry(_names("random", "random", "shuffle", "sample", "seed"), "rng", "CL119", "GB0007", "`Random.*` is skipped",
          "2.14 traces all four (`random.random()` becomes a graph input: branching on it breaks, GB0170)",
          ("kn_random_01", "kn_random_02"), "2.11.0, 2.13.0 (2.14.1: no break)", torch_max=(2, 14)),
    Entry(_names("random", "random"), "rng", "CL119", "GB0170",
          "Data-dependent branching (the draw is a graph input)",
          "traced since 2.14 while the draw only meets tensors; an `if` on it breaks",
          ("kn_random_01", "kn_random_02"), "2.14.1", torch_min=(2, 14), form="branch"),
    Entry(("random.Random.random",), "rng", "CL119", "GB0170", "Data-dependent branching (the draw is a graph input)",
          "a `random.Random`'s `random()` is traced on every release (the module's `random.random()` only since "
          "2.14): an `if` on it breaks, arithmetic with tensors does not (demucs' SVD penalty)",
          ("kn_random_instance_01", "kn_random_instance_02"), "2.13.0, 2.14.1", form="branch",
          traced=("clean_kn_random_instance_01", "clean_kn_random_instance_02")),
    Entry(_names("random", "getrandbits", "choice", "choices", "gauss", "normalvariate", "betavariate",
                 "expovariate"), "rng", "CL119", "GB0007",
          "`Random.*` is skipped",
          "`random.randint`, `uniform` and `randrange` are traced while the draw only meets tensors "
          "(`n + 4` breaks, GB0213; `x[:, n]` too, GB0033)", ("kn_random_01",), CONFIRMED,
          traced=("clean_kn_random_traced_01",)),
    Entry(_names("random", "uniform", "randint", "randrange"), "rng", "CL119", "GB0170",
          "Data-dependent branching (the draw is a graph input)",
          "traced while the draw only meets tensors; an `if` on it breaks (2.11: GB0213, and the rest of the frame "
          "runs eagerly); so do a `random.Random`'s draws, and a name bound to one decides the same way "
          "(vector-quantize's quantize dropout)", ("kn_random_02", "kn_random_03", "kn_random_drawn_name_01"), CONFIRMED,
          form="branch", traced=("clean_kn_random_traced_01", "clean_kn_random_drawn_name_01")),
    Entry(("numpy.random.rand", "numpy.random.randn"), "rng", "CL119", "GB0033",
          "Data dependent operator (a Python scalar drawn through torch._numpy)",
          "with a shape (`np.random.rand(3)`) the draw is traced", ("kn_numpy_random_01",), CONFIRMED, size_at=-1,
          traced=("clean_kn_numpy_random_array_01",)),
    Entry(("numpy.random.random", "numpy.random.random_sample"), "rng", "CL119", "GB0033",
          "Data dependent operator (a Python scalar drawn through torch._numpy)", "with `size` the draw is traced",
          ("kn_numpy_random_01",), CONFIRMED, size_at=0),
    Entry(("numpy.random.uniform", "numpy.random.normal", "numpy.random.randint"), "rng", "CL119", "GB0033",
          "Data dependent operator (a Python scalar drawn through torch._numpy)", "with `size` the draw is traced",
          ("kn_numpy_random_01",), CONFIRMED, size_at=2, traced=("clean_kn_numpy_random_array_01",)),
    Entry(("numpy.random.choice",), "rng", "CL119", "GB0033", "Data dependent operator", "also with `size`",
          ("kn_numpy_random_02",), CONFIRMED),
    Entry(("numpy.random.permutation", "numpy.random.default_rng"), "rng", "CL119", "GB0294",
          "numpy function not supported by torch._numpy", "", ("kn_numpy_random_02",), CONFIRMED),
    Entry(_names("numpy.random", *NUMPY_RNG_CLASSES), "rng", "CL119", "GB0156",
          "Unsupported method call (`__new__` of a NumPy random class)",
          "NumPy's random state objects cannot be built while tracing: make them outside the region "
          "(torchsde's Brownian intervals split with `np.random.SeedSequence`)", ("kn_numpy_random_04",),
          "2.13.0, 2.14.1", traced=("clean_kn_numpy_random_04",)),
    Entry(_names("numpy.random", "binomial", "poisson", "beta", "gamma", "exponential", "standard_normal",
                 "laplace", "multinomial", *NUMPY_RANDOM_OTHER), "rng", "CL119", "GB0294",
          "numpy function not supported by torch._numpy",
          "torch._numpy draws only `rand`/`randn`/`random`/`uniform`/`normal`/`randint`/`choice`/`shuffle`: "
          "other distributions break also with `size` (pytorchcv's FractalNet drop masks, normflows' "
          "`np.random.geometric`)", ("kn_numpy_random_03", "kn_numpy_random_05"), "2.13.0, 2.14.1"),
    Entry(_names("numpy", *NUMPY_UNSUPPORTED) + _names("numpy.linalg", *NUMPY_LINALG_UNSUPPORTED), "untraceable",
          "CL119", "GB0294", "numpy function not supported by torch._numpy",
          "every NumPy function torch._numpy lacks breaks, also on Python constants: `np.interp`, `np.digitize`, "
          "`np.isin`, `np.nanmean`, `np.polyfit`, `np.unravel_index`, ... (use `torch.bucketize`, `torch.isin`, "
          "`torch.nanmean`, or compute it outside the region)", ("kn_numpy_unsupported_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_numpy_supported_01",)),
    Entry(_names("numpy", "isscalar", "ndim", "size", "result_type", "iscomplexobj", "isrealobj", "min_scalar_type"),
          "untraceable", "CL119", "GB0208",
          "torch.* op returned non-Tensor (torch._numpy answers these with a Python value)",
          "ask Python instead: `isinstance(s, (int, float))`, `len(shape)`, `math.prod(shape)`; "
          "`np.shape`, `np.issubdtype` and `np.finfo` are traced", ("kn_numpy_python_value_01",), CONFIRMED,
          traced=("clean_kn_numpy_python_value_01",)),
    Entry(("numpy.polynomial.*",), "skipped", "CL119", "GB0007",
          "torch._numpy has no `polynomial`: NumPy's own function is marked as skipped",
          "compute nodes, fits and coefficients once, outside the region, and keep them as tensors "
          "(zuko's Gauss-Legendre quadrature)", ("kn_numpy_polynomial_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_numpy_polynomial_01",)),
    Entry(("networkx.*",), "skipped", "CL119", "GB0007",
          "networkx is on Dynamo's third-party skip list: its functions and classes are marked as skipped",
          "work out what the model needs from the graph (degrees, paths, a Laplacian) once, outside the "
          "region, and keep it as tensors", ("kn_networkx_01",), CONFIRMED,
          traced=("clean_kn_networkx_01",), why="Dynamo skips networkx (its third-party skip list) and breaks the graph"),
    Entry(("itertools.combinations_with_replacement",), "untraceable", "CL119", "GB0147",
          "Dynamo does not know how to trace `itertools.combinations_with_replacement` (before 2.14)",
          "walk `itertools.combinations` or `product` (traced) or build the index tuples outside the region "
          "(hummingbird's polynomial features)", ("clean_kn_itertools_cwr_01",),
          "2.13.0 (a break); 2.14.1 traces it (the case's `[torch < 2.14]` label)", torch_max=(2, 14),
          traced=("clean_kn_itertools_cwr_02",)),
    Entry(("torch.utils.data.*",), "skipped", "CL119", "GB0008", "Dynamo skips `torch.utils.data` (datasets, samplers, "
          "`DataLoader`, `random_split`: `TensorDataset.__init__`, `DataLoader.__init__` are marked as skipped)",
          "build datasets and loaders outside the region and hand the compiled code the batches (diffsptk's "
          "`to_dataloader` called in a forward)", ("kn_torch_data_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_torch_data_01",), why="Dynamo skips `torch.utils.data` and breaks the graph"),
    Entry(("pandas.*",), "skipped", "CL119", "GB0008", "pandas is on Dynamo's third-party skip list (`DataFrame.__init__`)",
          "build tables from the compiled code's outputs, outside the region", ("kn_pandas_01",), CONFIRMED,
          traced=("clean_kn_pandas_01",), why="Dynamo skips pandas (its third-party skip list) and breaks the graph"),
    Entry(("sklearn.base.TransformerMixin.transform", "sklearn.base.TransformerMixin.fit_transform"), "skipped",
          "CL119", "GB0008", "scikit-learn wraps a subclass's `transform` in `sklearn/utils/_set_output.py`, which is skipped",
          "a project transformer's `transform` / `fit_transform` (and `super().transform`) breaks: scale with torch "
          "ops in the region, or pass `auto_wrap_output_keys=None` in the class statement (rules/_sklearn.py)",
          ("kn_sklearn_transformer_01",), "2.13.0, 2.14.1", form="method", traced=("clean_kn_sklearn_transformer_01",),
          why="scikit-learn wraps it in a function of its own and Dynamo skips scikit-learn"),
    Entry(tuple(f"{pkg}.{fn}" for pkg in ("gym", "gymnasium") for fn in (
        *_names("spaces", *SPACE_UTILS), *_names("spaces.utils", *SPACE_UTILS), *_names("vector.utils", *VECTOR_UTILS))),
          "skipped", "CL119", "GB0007", "a `functools.singledispatch` function with an ABC registered asks "
          "`_abc.get_cache_token`, which is marked as skipped",
          "work out sizes and layouts from the space once, outside the region (`flatdim` in `__init__`), and read "
          "`space.shape` / `space.n` in it", ("kn_gym_spaces_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_gym_spaces_01",)),
    Entry(("importlib.import_module",), "untraceable", "CL119", "GB0007", "`importlib.import_module` is marked as skipped",
          "import the module once, outside the region (at the top of the file or in `__init__`), and keep what "
          "the region needs from it", ("kn_import_module_01",), "2.13.0, 2.14.1", traced=("clean_kn_import_module_01",)),
    Entry(("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.std.tqdm", "tqdm.notebook.tqdm", "tqdm.tqdm.tqdm",
           "tqdm.autonotebook.tqdm", "tqdm.trange", "tqdm.auto.trange"), "untraceable", "CL119", "GB0007",
          "`tqdm.__new__` is marked as skipped",
          "a progress bar around a loop (even `disable=True`) breaks, and the frame runs eagerly (GB0008): keep "
          "it in the eager caller", ("kn_tqdm_01",), "2.13.0, 2.14.1", traced=("clean_kn_eager_helpers_01",)),
    Entry(_names("torch.nn.utils.rnn", "pack_padded_sequence", "pack_sequence", "pad_packed_sequence"), "untraceable",
          "CL119", "GB0007", "packing and unpacking run functions Dynamo marks as skipped",
          "`pad_sequence` is traced; pack and unpack outside the region, or keep padded tensors and masks "
          "(an RNN that takes packed input is refused anyway)",
          ("kn_pack_sequence_01", "kn_pad_packed_sequence_01"), "2.13.0, 2.14.1"),
    Entry(("torch.autograd.Variable", "torch.autograd.variable.Variable"), "untraceable", "CL119", "GB0007",
          "`_LegacyVariableBase.__new__` is skipped",
          "the legacy wrapper is a no-op since torch 0.4: use the tensor itself", ("kn_autograd_variable_01",),
          "2.13.0, 2.14.1", traced=("clean_kn_eager_helpers_01",)),
    Entry(_names("torch.autograd.functional", "jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"), "untraceable", "CL119",
          "GB0055", "Dynamo cannot hand the function to the op", "use `torch.func` (`jacrev`, `hessian`, `vjp`, ...): "
          "traced", ("kn_autograd_functional_01",), "2.13.0, 2.14.1", traced=("clean_kn_autograd_functional_01",)),
    Entry(("torch._C._is_tracing",), "untraceable", "CL119", "GB0208", "a torch binding returning a Python bool "
          "(torch.* op returned non-Tensor)", "ask `torch.jit.is_tracing()`, which Dynamo folds to False "
          "(asteroid-filterbanks' copy of torch 1.6's `script_if_tracing` calls the raw binding)",
          ("kn_is_tracing_raw_01",), "2.13.0, 2.14.1", traced=("clean_kn_is_tracing_raw_01",)),
    Entry(("torch.get_num_threads", "torch.get_num_interop_threads"), "untraceable", "CL119", "GB0208", "a torch "
          "function returning a Python int", "read it once outside the region (`__init__`) and keep it", (
              "kn_num_threads_01",), "2.13.0, 2.14.1", traced=("clean_kn_num_threads_01",)),
    Entry(("torch.set_num_threads", "torch.set_num_interop_threads"), "skipped", "CL119", "GB0007", "a builtin Dynamo "
          "skips", "set it once before compiling", ("kn_num_threads_01",), "2.13.0, 2.14.1"),
    Entry(_names("torch.autograd", "set_detect_anomaly", "anomaly_mode.set_detect_anomaly"), "skipped", "CL119", "GB0008", "torch.autograd.anomaly_mode is "
          "marked as skipped", "switch anomaly detection on once, before compiling (or debug the eager model; "
          "`with detect_anomaly():` is CL141's)",
          ("kn_autograd_anomaly_01",), "2.13.0, 2.14.1", traced=("clean_kn_autograd_anomaly_01",)),
    Entry(("torch.nn.init.trunc_normal_",), "untraceable", "CL119", "GB0124", "it reads its bounds with `.item()`",
          "initialise before the region, or draw with `normal_` and clamp", ("kn_trunc_normal_01",), "2.13.0, 2.14.1 "
          "(2.11.0 traces it)", torch_min=(2, 13), traced=("clean_kn_trunc_normal_01",)),
    # ---- torch's own modules on Dynamo's skip list (trace_rules.MOD_SKIPLIST; CL119) ------
    Entry(("torch.quasirandom.SobolEngine",), "skipped", "CL119", "GB0008",
          "torch.quasirandom is on Dynamo's skip list: `SobolEngine.__init__` is marked as skipped",
          "draw the points outside the region, or once in `__init__` into a buffer (botorch's QMC samplers)",
          ("kn_torch_skipped_01",), "2.13.0, 2.14.1", traced=("clean_kn_torch_skipped_01",)),
    Entry(_names("torch.quasirandom.SobolEngine", "draw", "draw_base2", "fast_forward", "reset"), "skipped",
          "CL119", "GB0008", "`SobolEngine.draw` is marked as skipped",
          "the engine's methods, on an engine the class, function or module builds", ("kn_torch_skipped_01",),
          "2.13.0, 2.14.1", form="method", traced=("clean_kn_torch_skipped_01",)),
    Entry(("torch.masked.MaskedTensor", "torch.masked.masked_tensor", "torch.masked.as_masked_tensor",
           "torch.masked.maskedtensor.core.MaskedTensor", "torch.masked.maskedtensor.core.masked_tensor",
           "torch.masked.maskedtensor.core.as_masked_tensor"), "skipped", "CL119", "GB0007",
          "torch.masked is on Dynamo's skip list: its constructors are marked as skipped",
          "`torch.masked.sum` / `mean` with `mask=` on plain tensors, or `torch.where(mask, x, 0)`, are traced",
          ("kn_torch_skipped_02",), "2.13.0, 2.14.1", traced=("clean_kn_torch_skipped_01",)),
    Entry(("torch.lobpcg", "torch._lobpcg.lobpcg"), "skipped", "CL119", "GB0007", "`lobpcg` is marked as skipped",
          "`torch.linalg.eigh` is traced; `torch.svd_lowrank` too", ("kn_torch_skipped_02",), "2.13.0, 2.14.1",
          traced=("clean_kn_torch_skipped_01",)),
    Entry(("torch.jit.fork", "torch.jit.wait", "torch.jit._async.fork", "torch.jit._async.wait"), "skipped", "CL119",
          "GB0007", "torch.jit is on Dynamo's skip list: `fork` / `wait` are marked as skipped",
          "call the function directly: the compiler schedules independent work itself", ("kn_torch_skipped_02",),
          "2.13.0, 2.14.1"),
    Entry(("torch.result_type", "torch.Tensor.is_pinned"), "untraceable", "CL119", "GB0208",
          "torch.* op returned non-Tensor", "`torch.promote_types(a.dtype, b.dtype)` is traced",
          ("kn_torch_skipped_03",), "2.13.0, 2.14.1", traced=("clean_kn_torch_skipped_01",)),
    Entry(("torch.get_default_device",), "untraceable", "CL119", "GB0208", "torch.* op returned non-Tensor",
          "use the input's `x.device` (`torch.get_default_dtype()` is traced)", ("kn_default_device_01",),
          "2.13.0, 2.14.1", traced=("clean_kn_default_device_01",)),
    Entry(("torch.Tensor.share_memory_",), "untraceable", "CL119", "GB0117", "Unhandled args for method",
          "share storage before compiling (a DataLoader worker's job)", ("kn_torch_skipped_03",), "2.13.0, 2.14.1"),
    # ---- modules Dynamo refuses (CL119) ---------------------------------------------------
    Entry(("torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN", "torch.nn.RNNBase", "torch.nn.modules.rnn.LSTM",
           "torch.nn.modules.rnn.GRU", "torch.nn.modules.rnn.RNN", "torch.nn.modules.rnn.RNNBase"),
          "untraceable", "CL119", "GB0014",
          "Dynamo does not support RNN, GRU, or LSTM (`torch._dynamo.config.allow_rnn` is off)",
          "the whole function runs eagerly; the cells (`nn.LSTMCell`, …) are traced",
          ("kn_rnn_lstm_01", "kn_rnn_gru_01", "kn_rnn_rnn_01", "kn_rnn_wrapper_01", "kn_star_rnn_01", "kn_rnn_base_01",
           "kn_either_rnn_01", "kn_rnn_first_read_01"),
          CONFIRMED,
          form="instance", why="Dynamo refuses to wrap RNN, GRU and LSTM modules; the whole function runs eagerly",
          traced=("clean_kn_lstm_cell_01", "clean_kn_rnn_wrapper_01", "clean_kn_star_rnn_01", "clean_kn_rnn_base_01",
                  "clean_kn_either_rnn_01", "clean_kn_rnn_first_read_01")),
    *TRANSFORMER_MASKS,
    Entry(("torch.nn.CTCLoss", "torch.nn.modules.loss.CTCLoss"), "untraceable", "CL119", "GB0036",
          "Dynamic shape operator (it calls `F.ctc_loss`)",
          "compute the loss outside the compiled region, on the compiled model's outputs",
          ("kn_ctc_loss_01",), "2.13.0, 2.14.1", form="instance", traced=("clean_kn_ctc_loss_01",)),
    Entry(("torch.jit.ScriptModule",), "untraceable", "CL119", "GB4695",
          "torch.jit.script/freeze modules unsupported (a traced module: inline of a skipped function, GB0008)",
          "what `torch.jit.trace` / `trace_module` / `load` / `freeze`, or `torch.jit.script` of a module, "
          "returns; `torch.jit.script` of a function is traced", ("kn_jit_module_01",), "2.13.0, 2.14.1",
          form="instance", traced=("clean_kn_jit_module_01",)),
    Entry(_names("torch.jit", "script", "trace", "trace_module", "freeze", "load"), "skipped", "CL119", "GB0007",
          "torch.jit's entry points are marked as skipped", "script or trace once, at import or in `__init__`, and "
          "call the result (a scripted function is traced)", ("kn_jit_in_region_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_jit_in_region_01",)),
    Entry(("torch.utils.checkpoint.checkpoint_sequential",), "skipped", "CL119", "GB0007",
          "`checkpoint_sequential` is marked as skipped (with either `use_reentrant`)",
          "`torch.utils.checkpoint.checkpoint(segment, x, use_reentrant=False)` per segment is traced",
          ("kn_jit_module_01",), "2.13.0, 2.14.1", traced=("clean_kn_jit_module_01",)),
    Entry(("torch.jit.isinstance",), "untraceable", "CL119", "GB0007",
          "torch.jit is on Dynamo's skip list (`torch.jit.isinstance` is marked as skipped)",
          "Python's `isinstance` on the container and its elements is traced", ("kn_jit_isinstance_01",),
          CONFIRMED, traced=("clean_kn_jit_isinstance_01",)),
    Entry(("torch.allclose", "torch.Tensor.allclose", "torch.Tensor.equal", "torch.is_nonzero",
           "torch.Tensor.is_nonzero"), "untraceable", "CL119", "GB0033",
          "Data dependent operator (aten.allclose / aten.equal / is_nonzero return a Python bool from the values)",
          "`torch.isclose(a, b)` stays a tensor and is traced", ("kn_tensor_compare_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_tensor_introspection_01",)),
    Entry(("numpy.allclose", "numpy.array_equal", "numpy.array_equiv"), "untraceable", "CL119", "GB0033",
          "Data dependent operator (through torch._numpy: aten.allclose / a Python bool from the values)",
          "compare before compiling, or keep a tensor: `torch.isclose(a, b).all()`; even two constant lists "
          "are traced as tensors", ("kn_numpy_allclose_01",), "2.13.0, 2.14.1",
          traced=("clean_kn_numpy_allclose_01",)),
    Entry(_names("torch.Tensor", "apply_", "map_", "resize_"), "untraceable", "CL119", "GB0055",
          "a Python callable applied per element (GB0055), or an in-place resize (GB0126)",
          "write the function with tensor ops; `reshape` / `new_empty` instead of `resize_`",
          ("kn_one_hot_01",), "2.13.0, 2.14.1", traced=("clean_kn_one_hot_01",)),
    Entry(_names("torch.Tensor", "detach_", "unsqueeze_", "squeeze_", "t_", "transpose_", "swapdims_",
                 "swapaxes_", "as_strided_"), "untraceable", "CL119", "GB0148",
          "an in-place view of a graph input (a parameter, a buffer, state kept on the module) is not supported",
          "rebind instead of changing in place: `self.mem = self.mem.detach()`; on a tensor made in the "
          "region the in-place form is traced", ("kn_inplace_view_input_01",), "2.13.0, 2.14.1", form="input",
          traced=("clean_kn_inplace_view_input_01",),
          why="Dynamo does not take an in-place view of a graph input (a parameter, a buffer, state kept on "
              "the module) and breaks the graph"),
    Entry(_names("torch.nn.Module", "register_forward_hook", "register_forward_pre_hook",
                 "register_full_backward_hook", "register_full_backward_pre_hook", "register_backward_hook"),
          "untraceable", "CL119", "GB0467",
          "setattr() on unsupported type (the hook handle's bookkeeping)",
          "register hooks once, outside the region (in `__init__` or before compiling), and keep the handles",
          ("kn_module_hook_01",), "2.13.0, 2.14.1", traced=("clean_kn_module_hook_01",),
          why="Dynamo cannot trace registering a module hook (the handle's bookkeeping) and breaks the graph"),
    Entry(("torch.testing.assert_close",), "untraceable", "CL119", "GB0170",
          "Data-dependent branching (it compares the values in Python)",
          "check outside the compiled region, in the test or the eager caller", ("kn_tensor_compare_01",),
          "2.13.0, 2.14.1"),
    Entry(_names("torch.Tensor", "storage_offset", "untyped_storage", "storage", "is_set_to", "is_same_size"),
          "untraceable", "CL119", "GB0208",
          "torch.* op returned non-Tensor (`untyped_storage`: unsupported method call, GB0156)",
          "fake tensors have no storage: `stride()`, `is_contiguous()` and the shape are traced",
          ("kn_tensor_storage_01",), "2.13.0, 2.14.1", traced=("clean_kn_tensor_introspection_01",)),
    Entry(("json.dumps", "json.loads"), "untraceable", "CL119", "GB0156",
          "Unsupported method call (the encoder's C scanner; 2.14: GB4818)",
          "serialise cache keys and specs once, outside the region (`pickle.dumps` is CL118's)",
          ("kn_python_helpers_01",), "2.13.0, 2.14.1", traced=("clean_kn_tensor_introspection_01",)),
    Entry(("threading.get_ident", "threading.current_thread"), "skipped", "CL119", "GB0007",
          "threading is marked as skipped", "ask for the thread outside the region",
          ("kn_python_helpers_01",), "2.13.0, 2.14.1"),
    *GAUSSIAN_NLL,
    Entry(("torch.equal",), "untraceable", "CL119", "GB0033",
          "Data dependent operator (aten.equal returns a Python bool from the tensors' values)",
          "`(a == b).all()` stays a tensor and is traced", ("kn_equal_01",), CONFIRMED,
          traced=("clean_kn_equal_01",)),
    Entry(_names("torch", "sparse_coo_tensor", "sparse_csr_tensor", "sparse_csc_tensor", "sparse_bsr_tensor",
                 "sparse_bsc_tensor", "sparse_compressed_tensor"), "untraceable", "CL119", "GB0374",
          "Sparse tensor creation not supported",
          "build the sparse tensor outside the region and pass it in", ("kn_sparse_ctor_01",), CONFIRMED),
    Entry(_names("torch.Tensor", "to_sparse", "to_sparse_coo", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr",
                 "to_sparse_bsc"), "untraceable", "CL119", "GB0277",
          "Attempted to wrap sparse Tensor with VariableTracker (the result of the conversion)",
          "convert outside the region and pass the sparse tensor in, or keep the dense one",
          ("kn_to_sparse_01",), "2.13.0, 2.14.1", traced=("clean_kn_to_sparse_01",)),
    Entry(("torch.spmm", "torch.smm", "torch.hspmm", "torch.sspaddmm", *_names(
              "torch.sparse", "mm", "addmm", "sum", "softmax", "log_softmax", "sampled_addmm")),
          "untraceable", "CL119", "GB0015",
          "Attempted to wrap sparse Tensor (the sparse operand these take, read first here)",
          "multiply by the dense adjacency (`adj @ x`), or run the sparse product outside the region",
          ("kn_sparse_operand_01",), CONFIRMED, traced=("clean_kn_sparse_operand_01",),
          why="Dynamo cannot wrap the sparse tensor it multiplies and breaks the graph where the frame first reads it"),
    Entry(("torch.distributions.kl_divergence", "torch.distributions.kl.kl_divergence"), "untraceable", "CL119",
          "GB0059", "Failed to trace builtin operator (the registry lookup's `min()` over its matches)",
          "call `kl_divergence` once eagerly for the pair before compiling, or write the closed form "
          "(`torch.log(s2 / s1) + (s1**2 + (m1 - m2)**2) / (2 * s2**2) - 0.5` for two Normals)",
          ("kn_kl_divergence_01", "kn_kl_divergence_02"), "2.13.0, 2.14.1", form="dispatch",
          traced=("clean_kn_kl_divergence_01",),
          why="the first call for a pair of exponential-family distributions looks it up in torch's KL registry, "
              "which Dynamo cannot trace, and breaks the graph"),
    Entry(OPTIMIZERS, "untraceable", "CL119", "GB0008",
          "`Optimizer.__init__` is skipped (SGD GB0467, LBFGS GB0088); the frame runs eagerly (GB8335)",
          "build the optimiser outside the region (test-time optimisation: run its loop eagerly)",
          ("kn_optimizer_ctor_01",), CONFIRMED, traced=("clean_kn_optimizer_ctor_01",)),
    Entry(("torchmetrics.Metric", "torchmetrics.metric.Metric"), "untraceable", "CL119", "GB0208",
          "`Metric.__init__` reads `torch.get_default_device()`, a torch function that returns no tensor",
          "build metrics in `__init__`, outside the region (a project subclass too: its `__init__` "
          "runs the base's); compute inside with torchmetrics' functional forms", ("cf_metric_built_01",),
          "2.13.0, 2.14.1", traced=("clean_metric_built_01",),
          why="building a torchmetrics metric breaks the graph in `Metric.__init__`"),
    Entry(("pydantic.BaseModel", "pydantic.main.BaseModel"), "untraceable", "CL119", "GB0156",
          "Unsupported method call (`BaseModel.__init__` hands the fields to pydantic-core's "
          "`validate_python`, in C)",
          "validate in the eager caller and pass the tensors in; the validators run as frames of their "
          "own (field validators, and model validators that use torch), and their breaks are reported there",
          ("cf_pydantic_validator_01",), "2.13.0, 2.14.1", traced=("clean_pydantic_validator_01",),
          why="building a pydantic model calls pydantic-core's validator, in C, which Dynamo cannot trace, "
              "and breaks the graph"),
    # (not the base's `step`: a project optimizer deriving from it may be traced whole; every
    # optimizer but one overriding it runs the base's `zero_grad`, which is skipped)
    Entry(_methods(OPTIMIZERS, "step", "zero_grad") + _methods(LR_SCHEDULERS, "step", "get_last_lr")
          + _methods(OPTIMIZER_BASES, "zero_grad"), "skipped",
          "CL119", "GB0008", "torch.optim is skipped: `zero_grad` and a scheduler's methods are not inlined; "
          "`Optimizer.step` calls `torch._dynamo.graph_break()` (GB0025)",
          "step the optimiser and its schedule in the eager training loop, around the compiled forward "
          "(or compile `opt.step` on its own)",
          ("kn_optimizer_methods_01", "kn_optimizer_methods_02", "kn_optimizer_methods_03", "kn_optimizer_methods_04"),
          "2.13.0, 2.14.1", form="method",
          traced=("clean_kn_optimizer_methods_01", "clean_kn_optimizer_methods_02", "clean_kn_optimizer_methods_03",
                  "clean_kn_optimizer_methods_04")),
    Entry(_methods(TQDM_CLASSES, "update", "close", "set_postfix", "set_postfix_str", "set_description",
                   "set_description_str", "refresh", "reset", "clear"), "skipped", "CL119", "GB0008",
          "tqdm is skipped: its methods are not inlined",
          "a progress bar's methods, on a bar the class, function or module builds: update it in the eager "
          "caller", ("kn_optimizer_methods_01",), "2.13.0, 2.14.1", form="method",
          traced=("clean_kn_optimizer_methods_01",)),
    # ---- copy (CL114) ---------------------------------------------------------------------
    Entry(("copy.deepcopy",), "untraceable", "CL114", "GB0179", "copy.deepcopy is not supported",
          "of anything, even a dict of floats; 2.13 traces it and breaks only on a tensor (CL114's other finding)",
          ("clean_deepcopy_config_01",), "2.11.0 (a break: the case's `[torch < 2.13]` label); 2.13.0, 2.14.1 (no break)",
          torch_max=(2, 13)),
)


@lru_cache(maxsize=None)
def method_classes() -> frozenset[str]:
    """The classes whose methods a "method" row names: what `self.x = Class(...)` must remember."""
    return frozenset(name.rsplit(".", 1)[0] for entry in ENTRIES if entry.form == "method" for name in entry.names)


@lru_cache(maxsize=None)
def table(rule: str, version: tuple[int, int], entries: tuple[Entry, ...] = ENTRIES) -> Table:
    return Table(tuple(e for e in entries if e.rule == rule and e.applies_to(version)))
