"""hummingbird-ml 0.4.12 (Microsoft): traditional ML models compiled into PyTorch tensor programs.
Each model is a scikit-learn estimator (or ``Pipeline`` / ``ColumnTransformer``) fitted on tiny
random NumPy data (40 rows x 5 features, ``RandomState(0)``; 2 or 3 classes), converted as the
README does, ``hummingbird.ml.convert(model, "torch")`` (trees with
``extra_config={"tree_implementation": ...}`` where named), and the module compiled is the
container's inner ``nn.Module``, ``hb_model.model`` (an ``Executor`` over the operator modules),
called on a float32 batch of 8 rows as a torch tensor, as ``hb_model.predict`` / ``predict_proba``
call it. Classifiers return ``(labels, probabilities)``, regressors and transformers one tensor
(``IsolationForest`` / ``KMeans``: labels and scores / distances as the converter returns them).

Models (55):
- trees, each of ``gemm`` / ``tree_trav`` / ``perf_tree_trav``: ``DecisionTreeClassifier``
  (3 classes), ``RandomForestClassifier`` (binary), ``GradientBoostingClassifier`` (3 classes),
  ``RandomForestRegressor``; and ``ExtraTreesClassifier`` (gemm), ``ExtraTreesRegressor``
  (tree_trav), ``GradientBoostingRegressor`` (perf_tree_trav), ``DecisionTreeRegressor`` (default
  strategy), ``HistGradientBoostingClassifier`` (binary, default) / ``HistGradientBoostingRegressor``
  (tree_trav), ``IsolationForest`` (default);
- linear: ``LogisticRegression`` (binary and 3-class), ``LinearRegression``, ``Ridge``,
  ``SGDClassifier(loss="log_loss")``, ``LinearSVC``, ``PoissonRegressor`` (non-negative data, |y|);
- ``SVC`` (rbf; and ``probability=False`` poly), ``NuSVC``; ``MLPClassifier`` / ``MLPRegressor``;
  ``GaussianNB``, ``BernoulliNB``, ``MultinomialNB``; ``KNeighborsClassifier`` /
  ``KNeighborsRegressor`` (``extra_config={"batch_size": 8}``, which their converter requires); ``KMeans``;
- transformers: ``StandardScaler``, ``MinMaxScaler``, ``RobustScaler``, ``MaxAbsScaler``,
  ``Normalizer`` (l2), ``PolynomialFeatures`` (degree 2), ``SimpleImputer`` (mean, on data with
  NaNs), ``PCA``, ``KBinsDiscretizer`` (onehot-dense / ordinal), ``OneHotEncoder`` (integer
  columns, float input), ``Binarizer``, ``SelectKBest``, ``TruncatedSVD``;
- ``Pipeline``s: scaler + logistic regression, MinMax + polynomial features + ridge,
  imputer + PCA + random forest, and a ``ColumnTransformer`` (standard scaler on 3 columns,
  min-max on 2) before gradient boosting.

Eval: ``hb_model.model(x)``. Train: hummingbird models are inference-only (no loss, no training
step; ``Executor.forward`` itself runs under ``torch.no_grad()``), so "train" runs the same forward
with the module in train mode, as other adapters do for inference-only libraries.

    pip install --no-deps hummingbird-ml==0.4.12
    pip install --no-deps onnxconverter-common==1.14.0 onnx==1.16.1
    pip install --no-deps dill==0.4.1

(already installed and used: numpy, scipy, scikit-learn 1.9.1, psutil, packaging, protobuf.)
``hummingbird.ml`` imports ``onnxconverter_common`` (topology, registration, containers) and ``onnx``
(the ONNX container) and ``dill`` (the TVM container) at its top, so they are installed, not stubbed.
Nothing stubbed. LightGBM / XGBoost / CatBoost / Prophet / Spark ML are not installed: their
converters are left out; the ONNX and TVM backends are left out (the zoo compiles torch modules).
"""

PACKAGE = "hummingbird"
DISTRIBUTION = "hummingbird-ml"

_N, _F, _B = 40, 5, 8  # train rows, features, test batch


def warm_up():
    import hummingbird.ml  # noqa: F401
    import sklearn.ensemble  # noqa: F401
    import torch  # noqa: F401


def _data(classes=2, nonneg=False, nan=False):
    import numpy as np

    rng = np.random.RandomState(0)
    X = rng.rand(_N, _F).astype(np.float32)
    if not nonneg:
        X = X * 2 - 1
    if nan:
        X[rng.rand(_N, _F) < 0.1] = np.nan
    if classes:
        y = np.arange(_N) % classes
        rng.shuffle(y)
    else:
        y = (X[:, 0] * 2 + X[:, 1] - X[:, 2] + 0.1 * rng.randn(_N)).astype(np.float32)
        y = np.nan_to_num(y)
        if nonneg:
            y = np.abs(y)
    return X, y


def _convert(model, X, y, tree=None, batch=None, extra=None):
    import numpy as np
    import torch
    from hummingbird.ml import convert

    model.fit(X, y) if y is not None else model.fit(X)
    extra = dict(extra or {})
    if tree:
        extra["tree_implementation"] = tree
    hb = convert(model, "torch", extra_config=extra)
    xb = X[:_B] if batch is None else batch
    return hb.model, (torch.from_numpy(np.ascontiguousarray(xb, dtype=np.float32)),), {}


def _fit(build, classes=2, tree=None, nonneg=False, nan=False, unsupervised=False, extra=None):
    def make(mode):
        X, y = _data(classes, nonneg, nan)
        return _convert(build(), X, None if unsupervised else y, tree, extra=extra)

    return make


# --- estimators --------------------------------------------------------------------------------

def _dtc():
    from sklearn.tree import DecisionTreeClassifier
    return DecisionTreeClassifier(max_depth=4, random_state=0)


def _dtr():
    from sklearn.tree import DecisionTreeRegressor
    return DecisionTreeRegressor(max_depth=4, random_state=0)


def _rfc():
    from sklearn.ensemble import RandomForestClassifier
    return RandomForestClassifier(n_estimators=4, max_depth=3, random_state=0)


def _rfr():
    from sklearn.ensemble import RandomForestRegressor
    return RandomForestRegressor(n_estimators=4, max_depth=3, random_state=0)


def _etc():
    from sklearn.ensemble import ExtraTreesClassifier
    return ExtraTreesClassifier(n_estimators=4, max_depth=3, random_state=0)


def _etr():
    from sklearn.ensemble import ExtraTreesRegressor
    return ExtraTreesRegressor(n_estimators=4, max_depth=3, random_state=0)


def _gbc():
    from sklearn.ensemble import GradientBoostingClassifier
    return GradientBoostingClassifier(n_estimators=3, max_depth=3, random_state=0)


def _gbr():
    from sklearn.ensemble import GradientBoostingRegressor
    return GradientBoostingRegressor(n_estimators=3, max_depth=3, random_state=0)


def _hgbc():
    from sklearn.ensemble import HistGradientBoostingClassifier
    return HistGradientBoostingClassifier(max_iter=3, max_depth=3, random_state=0)


def _hgbr():
    from sklearn.ensemble import HistGradientBoostingRegressor
    return HistGradientBoostingRegressor(max_iter=3, max_depth=3, random_state=0)


def _iforest():
    from sklearn.ensemble import IsolationForest
    return IsolationForest(n_estimators=4, max_samples=16, random_state=0)


def _logreg():
    from sklearn.linear_model import LogisticRegression
    return LogisticRegression(max_iter=200)


def _linreg():
    from sklearn.linear_model import LinearRegression
    return LinearRegression()


def _ridge():
    from sklearn.linear_model import Ridge
    return Ridge(alpha=1.0)


def _sgd():
    from sklearn.linear_model import SGDClassifier
    return SGDClassifier(loss="log_loss", max_iter=50, tol=None, random_state=0)


def _linsvc():
    from sklearn.svm import LinearSVC
    return LinearSVC(max_iter=500, random_state=0)


def _poisson():
    from sklearn.linear_model import PoissonRegressor
    return PoissonRegressor(max_iter=200)


def _svc():
    from sklearn.svm import SVC
    return SVC(probability=True, random_state=0)


def _svc_poly():
    from sklearn.svm import SVC
    return SVC(kernel="poly", degree=2)


def _nusvc():
    from sklearn.svm import NuSVC
    return NuSVC(nu=0.5)


def _mlpc():
    from sklearn.neural_network import MLPClassifier
    return MLPClassifier(hidden_layer_sizes=(8, 8), max_iter=50, random_state=0)


def _mlpr():
    from sklearn.neural_network import MLPRegressor
    return MLPRegressor(hidden_layer_sizes=(8,), max_iter=50, random_state=0)


def _gnb():
    from sklearn.naive_bayes import GaussianNB
    return GaussianNB()


def _bnb():
    from sklearn.naive_bayes import BernoulliNB
    return BernoulliNB(binarize=0.0)


def _mnb():
    from sklearn.naive_bayes import MultinomialNB
    return MultinomialNB()


def _knnc():
    from sklearn.neighbors import KNeighborsClassifier
    return KNeighborsClassifier(n_neighbors=3)


def _knnr():
    from sklearn.neighbors import KNeighborsRegressor
    return KNeighborsRegressor(n_neighbors=3, weights="distance")


def _kmeans():
    from sklearn.cluster import KMeans
    return KMeans(n_clusters=3, n_init=1, random_state=0)


# --- transformers ------------------------------------------------------------------------------

def _std():
    from sklearn.preprocessing import StandardScaler
    return StandardScaler()


def _minmax():
    from sklearn.preprocessing import MinMaxScaler
    return MinMaxScaler()


def _robust():
    from sklearn.preprocessing import RobustScaler
    return RobustScaler()


def _maxabs():
    from sklearn.preprocessing import MaxAbsScaler
    return MaxAbsScaler()


def _normalizer():
    from sklearn.preprocessing import Normalizer
    return Normalizer(norm="l2")


def _poly():
    from sklearn.preprocessing import PolynomialFeatures
    return PolynomialFeatures(degree=2)


def _imputer():
    from sklearn.impute import SimpleImputer
    return SimpleImputer(strategy="mean")


def _pca():
    from sklearn.decomposition import PCA
    return PCA(n_components=3, random_state=0)


def _kbins(encode):
    def build():
        from sklearn.preprocessing import KBinsDiscretizer
        return KBinsDiscretizer(n_bins=3, encode=encode, strategy="uniform")
    return build


def _binarizer():
    from sklearn.preprocessing import Binarizer
    return Binarizer(threshold=0.0)


def _selectk():
    from sklearn.feature_selection import SelectKBest
    return SelectKBest(k=3)


def _tsvd():
    from sklearn.decomposition import TruncatedSVD
    return TruncatedSVD(n_components=2, random_state=0)


def _onehot(mode):
    import numpy as np
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.RandomState(0)
    X = rng.randint(0, 4, size=(_N, 3)).astype(np.float32)
    return _convert(OneHotEncoder(handle_unknown="ignore"), X, None)


# --- pipelines ---------------------------------------------------------------------------------

def _pipe_scaler_logreg():
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    return Pipeline([("scaler", StandardScaler()), ("clf", LogisticRegression(max_iter=200))])


def _pipe_poly_ridge():
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler, PolynomialFeatures
    return make_pipeline(MinMaxScaler(), PolynomialFeatures(degree=2), Ridge())


def _pipe_impute_pca_rf():
    from sklearn.decomposition import PCA
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    return Pipeline([("impute", SimpleImputer()), ("pca", PCA(n_components=3, random_state=0)),
                     ("rf", RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0))])


def _pipe_columns_gbc():
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler
    pre = ColumnTransformer([("num", StandardScaler(), [0, 1, 2]), ("mm", MinMaxScaler(), [3, 4])])
    return Pipeline([("pre", pre),
                     ("gbc", GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0))])


MODELS = {}
for _tree in ("gemm", "tree_trav", "perf_tree_trav"):
    MODELS[f"DecisionTreeClassifier_{_tree}"] = _fit(_dtc, 3, _tree)
    MODELS[f"RandomForestClassifier_{_tree}"] = _fit(_rfc, 2, _tree)
    MODELS[f"GradientBoostingClassifier_{_tree}"] = _fit(_gbc, 3, _tree)
    MODELS[f"RandomForestRegressor_{_tree}"] = _fit(_rfr, 0, _tree)
MODELS.update({
    "ExtraTreesClassifier_gemm": _fit(_etc, 3, "gemm"),
    "ExtraTreesRegressor_tree_trav": _fit(_etr, 0, "tree_trav"),
    "GradientBoostingRegressor_perf_tree_trav": _fit(_gbr, 0, "perf_tree_trav"),
    "DecisionTreeRegressor": _fit(_dtr, 0),
    "HistGradientBoostingClassifier": _fit(_hgbc, 2),
    "HistGradientBoostingRegressor_tree_trav": _fit(_hgbr, 0, "tree_trav"),
    "IsolationForest": _fit(_iforest, 0, unsupervised=True),
    "LogisticRegression_binary": _fit(_logreg, 2),
    "LogisticRegression_multiclass": _fit(_logreg, 3),
    "LinearRegression": _fit(_linreg, 0),
    "Ridge": _fit(_ridge, 0),
    "SGDClassifier_log_loss": _fit(_sgd, 3),
    "LinearSVC": _fit(_linsvc, 2),
    "PoissonRegressor": _fit(_poisson, 0, nonneg=True),
    "SVC_rbf_proba": _fit(_svc, 2),
    "SVC_poly": _fit(_svc_poly, 3),
    "NuSVC": _fit(_nusvc, 2),
    "MLPClassifier": _fit(_mlpc, 3),
    "MLPRegressor": _fit(_mlpr, 0),
    "GaussianNB": _fit(_gnb, 3),
    "BernoulliNB": _fit(_bnb, 2),
    "MultinomialNB": _fit(_mnb, 3, nonneg=True),
    "KNeighborsClassifier": _fit(_knnc, 3, extra={"batch_size": _B}),
    "KNeighborsRegressor": _fit(_knnr, 0, extra={"batch_size": _B}),
    "KMeans": _fit(_kmeans, 0, unsupervised=True),
    "StandardScaler": _fit(_std, 0, unsupervised=True),
    "MinMaxScaler": _fit(_minmax, 0, unsupervised=True),
    "RobustScaler": _fit(_robust, 0, unsupervised=True),
    "MaxAbsScaler": _fit(_maxabs, 0, unsupervised=True),
    "Normalizer": _fit(_normalizer, 0, unsupervised=True),
    "PolynomialFeatures": _fit(_poly, 0, unsupervised=True),
    "SimpleImputer": _fit(_imputer, 0, nan=True, unsupervised=True),
    "PCA": _fit(_pca, 0, unsupervised=True),
    "KBinsDiscretizer_onehot": _fit(_kbins("onehot-dense"), 0, unsupervised=True),
    "KBinsDiscretizer_ordinal": _fit(_kbins("ordinal"), 0, unsupervised=True),
    "OneHotEncoder": _onehot,
    "Binarizer": _fit(_binarizer, 0, unsupervised=True),
    "SelectKBest": _fit(_selectk, 3),
    "TruncatedSVD": _fit(_tsvd, 0, unsupervised=True),
    "Pipeline_scaler_logreg": _fit(_pipe_scaler_logreg, 2),
    "Pipeline_minmax_poly_ridge": _fit(_pipe_poly_ridge, 0),
    "Pipeline_impute_pca_rf": _fit(_pipe_impute_pca_rf, 3, nan=True),
    "ColumnTransformer_gbc": _fit(_pipe_columns_gbc, 2),
})
del _tree
