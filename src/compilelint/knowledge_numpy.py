"""The NumPy names the knowledge table's NumPy rows list (compilelint.knowledge)."""

# NumPy's other distributions: none is in torch._numpy.random's __all__ (which draws only
# seed/random_sample/sample/random/rand/randn/normal/choice/randint/shuffle/uniform)
NUMPY_RANDOM_OTHER = (
    "geometric", "negative_binomial", "logistic", "lognormal", "chisquare", "dirichlet", "f", "gumbel",
    "hypergeometric", "logseries", "multivariate_normal", "noncentral_chisquare", "noncentral_f", "pareto",
    "power", "rayleigh", "standard_cauchy", "standard_exponential", "standard_gamma", "standard_t", "triangular",
    "vonmises", "wald", "weibull", "zipf", "random_integers", "bytes", "multivariate_hypergeometric",
)


# NumPy's random state classes: none can be built while tracing, and their methods are skipped
NUMPY_RNG_CLASSES = ("SeedSequence", "RandomState", "Generator", "BitGenerator", "PCG64", "PCG64DXSM", "MT19937",
                     "Philox", "SFC64")

# NumPy functions torch._numpy does not implement (numpy 2.4, torch 2.13.0 and 2.14.1: the same
# lists; tests/test_knowledge_numpy.py keeps them equal to what the installed torch lacks).
# Dynamo refuses every call of one in a compiled region, also on Python constants (GB0294).
NUMPY_LISTED_WITH = "2.4"  # the NumPy release the lists were made against
NUMPY_UNSUPPORTED = (
    "acos", "acosh", "apply_along_axis", "apply_over_axes", "argpartition", "array2string",
    "array_repr", "array_str", "asanyarray", "asarray_chkfinite", "asfortranarray", "asin", "asinh",
    "asmatrix", "astype", "atan", "atan2", "atanh", "base_repr", "binary_repr", "bitwise_count",
    "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift", "block", "bmat", "busday_count",
    "busday_offset", "compress", "concat", "cumulative_prod", "cumulative_sum",
    "datetime_as_string", "datetime_data", "delete", "digitize", "ediff1d", "einsum_path",
    "extract", "format_float_positional", "format_float_scientific", "frexp", "frombuffer",
    "fromfunction", "fromiter", "frompyfunc", "fromregex", "fromstring", "get_include",
    "get_printoptions", "getbufsize", "geterr", "geterrcall", "histogram_bin_edges", "info",
    "insert", "interp", "intersect1d", "is_busday", "isdtype", "isfortran", "isin", "isnat",
    "iterable", "ix_", "lexsort", "mask_indices", "matrix_transpose", "matvec", "may_share_memory",
    "mintypecode", "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean",
    "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar",
    "nested_iters", "packbits", "partition", "permute_dims", "piecewise", "place", "poly",
    "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul", "polysub", "polyval", "pow",
    "printoptions", "promote_types", "putmask", "ravel_multi_index", "require", "roots", "select",
    "set_printoptions", "setbufsize", "setdiff1d", "seterr", "seterrcall", "setxor1d",
    "shares_memory", "show_config", "show_runtime", "sort_complex", "spacing", "trapezoid",
    "trim_zeros", "typename", "union1d", "unique_all", "unique_counts", "unique_inverse",
    "unique_values", "unpackbits", "unravel_index", "unstack", "unwrap", "vecdot", "vecmat"
)
NUMPY_LINALG_UNSUPPORTED = (
    "cross", "diagonal", "matmul", "matrix_norm", "matrix_transpose", "outer", "svdvals",
    "tensordot", "trace", "vecdot", "vector_norm"
)
