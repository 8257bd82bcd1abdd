"""Settings: `[tool.compilelint]` in the nearest pyproject.toml, overridden by flags."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox",
    ".pants.d", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__",
    "_build", "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
    ".compilelint_cache",
)
DEFAULT_C_EXTENSIONS = ("scipy", "cv2", "sklearn", "skimage", "PIL", "pandas", "numba", "faiss", "pywt")
# The oldest torch release compilelint supports, and the newest one its knowledge (rules,
# knowledge.ENTRIES, the corpus labels) is confirmed on: a newer torch is checked as this one.
SUPPORTED_TORCH = ("2.4", "2.14")
ROOTS = ("modules", "explicit")
_CODE = re.compile(r"^CL\d{0,3}$")


class ConfigError(Exception):
    """A bad setting; the message names the key."""


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ("CL",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    target_torch: str | None = None  # None: the installed torch (up to the newest confirmed), else the newest
    target_python: str | None = None  # None: the Python running the check ("3.11": the code runs on 3.11)
    roots: str = "modules"
    # Modes the project never compiles in: findings only reachable there are dropped
    # (("training", False), ("dtype", "float32"), ("labels", False)); see semantic.guards.
    assume: tuple[tuple[str, Any], ...] = ()
    c_extensions: tuple[str, ...] = DEFAULT_C_EXTENSIONS
    respect_gitignore: bool = True
    force_exclude: bool = False
    root: str = "."  # the project root: where pyproject.toml is, else the working directory
    config_file: str | None = None
    probe: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def fingerprint(self) -> str:
        """What a file's analysis (a cache entry) depends on. Not which files are checked,
        and not what the engine does after the analysis: select the rules' findings and
        the compiled regions (`roots`), since every rule runs on every file."""
        data = asdict(self)
        for key in ("exclude", "extend_exclude", "respect_gitignore", "force_exclude", "root",
                    "config_file", "probe", "assume", "select", "ignore", "extend_select", "per_file_ignores", "roots"):
            data.pop(key)
        data["torch"] = torch_version(self)
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def parse_version(text: str) -> tuple[int, int]:
    match = re.match(r"^\s*(\d+)\.(\d+)", text)
    if not match:
        raise ValueError(text)
    return int(match.group(1)), int(match.group(2))


def dist_info(project: str) -> tuple[str, str] | None:
    """(folder, version) of the first `<project>-<version>.dist-info` folder along
    sys.path: what importlib.metadata finds, at a tenth of its start-up cost."""
    prefix = project.lower() + "-"
    pattern = re.compile(re.escape(prefix) + r"(\d+\.\d+[^-]*?)\.dist-info$", re.IGNORECASE)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            match = pattern.match(name) if name[:len(prefix)].lower() == prefix else None
            if match:
                return os.path.join(entry or ".", name), match.group(1)
    return None


@lru_cache(maxsize=1)
def installed_torch() -> str | None:
    """The installed torch's version from its metadata, without importing torch
    (`dist_info`), else importlib.metadata's answer."""
    found = dist_info("torch")
    if found is not None:
        return found[1]
    from importlib import metadata

    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return None


@dataclass(frozen=True)
class TorchTarget:
    """The torch release the rules apply for. `asked`: the release named by `target-torch`
    or installed (None: neither); `notice`: one line when `version` is not that release."""

    version: tuple[int, int]
    source: str  # "target-torch", "installed" or "default"
    asked: str | None = None
    notice: str | None = None


def _oldest() -> tuple[int, int]:
    return parse_version(SUPPORTED_TORCH[0])


def newest_confirmed() -> tuple[int, int]:
    return parse_version(SUPPORTED_TORCH[1])


def resolve_torch(settings: Settings) -> TorchTarget:
    return _resolve_torch(settings.target_torch or None)


@lru_cache(maxsize=8)
def _resolve_torch(target: str | None) -> TorchTarget:
    """`target-torch` if set, else the installed torch's release (from its metadata: torch
    is never imported), else the newest confirmed one; a release newer than the newest
    confirmed is checked as that one, with a notice saying so."""
    if target:
        text, source = target, "target-torch"
    else:
        text, source = installed_torch(), "installed"
        if text is None:
            return TorchTarget(newest_confirmed(), "default")
    try:
        version = parse_version(text)
    except ValueError:  # unreadable metadata: the newest confirmed, said once
        newest = "%d.%d" % newest_confirmed()
        return TorchTarget(newest_confirmed(), "default", text,
                           f"the installed torch's version {text!r} is not a release number: checking for torch {newest}")
    low, high = _oldest(), newest_confirmed()
    clamped = min(max(version, low), high)
    notice = None
    if version > high:
        what = "target-torch" if source == "target-torch" else "the installed torch"
        notice = (f"{what} is {text}, newer than {SUPPORTED_TORCH[1]}, the newest release compilelint's "
                  f"knowledge is confirmed on: the rules follow torch {SUPPORTED_TORCH[1]}")
    elif version < low:
        notice = (f"the installed torch is {text}, older than {SUPPORTED_TORCH[0]}, the oldest release "
                  f"compilelint supports: the rules follow torch {SUPPORTED_TORCH[0]}")
    return TorchTarget(clamped, source, text, notice)


def torch_version(settings: Settings) -> tuple[int, int]:
    return resolve_torch(settings).version


def find_pyproject(start: Path) -> Path | None:
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                with candidate.open("rb") as handle:
                    data = tomllib.load(handle)
            except (OSError, tomllib.TOMLDecodeError):
                continue
            if "compilelint" in data.get("tool", {}):
                return candidate
    return None


def _codes(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"`{key}` must be a list of rule codes, got {value!r}")
    out = []
    for code in value:
        code = code.strip().upper()
        if code in ("ALL",):
            code = "CL"
        if not _CODE.match(code):
            raise ConfigError(f"`{key}`: {code!r} is not a rule code or prefix (like CL102 or CL1)")
        out.append(code)
    return tuple(out)


def _strings(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"`{key}` must be a list of strings, got {value!r}")
    return tuple(value)


def _torch(key: str, value: Any) -> str:
    if not isinstance(value, (str, float)):
        raise ConfigError(f"`{key}` must be a version string like \"2.11\", got {value!r}")
    text = str(value)
    try:
        version = parse_version(text)
    except ValueError:
        raise ConfigError(f"`{key}`: {text!r} is not a version like \"2.11\"") from None
    if version < _oldest():  # a newer one is checked as the newest confirmed, with a notice
        raise ConfigError(
            f"`{key}`: torch {text} is not supported (supported: {SUPPORTED_TORCH[0]} and later; "
            f"confirmed up to {SUPPORTED_TORCH[1]})"
        )
    return text


def _python(key: str, value: Any) -> str:
    text = str(value) if isinstance(value, (str, float)) else ""
    if not re.fullmatch(r"3\.\d{1,2}", text):
        raise ConfigError(f"`{key}` must be a Python release like \"3.11\", got {value!r}")
    return text


def python_version(settings: Settings) -> tuple[int, int]:
    """The Python the code runs on: `target-python`, else the one running the check (a
    standard-library behaviour Dynamo meets moved: CL147's `cached_property` lock, gone in 3.12)."""
    return parse_version(settings.target_python) if settings.target_python else tuple(sys.version_info[:2])


def _roots(key: str, value: Any) -> str:
    if value not in ROOTS:
        raise ConfigError(f"`{key}` must be one of {', '.join(map(repr, ROOTS))}, got {value!r}")
    return value


def _per_file_ignores(key: str, value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"`{key}` must be a table of glob = [codes], got {value!r}")
    return tuple((glob, _codes(f"{key}.{glob}", codes)) for glob, codes in value.items())


ASSUME = {"training": (bool,), "labels": (bool,), "dtype": ("float32", "float16", "bfloat16")}


def _assume(key: str, value: Any) -> tuple[tuple[str, Any], ...]:
    """`assume = { training = false, dtype = "float32" }`."""
    if not isinstance(value, dict):
        raise ConfigError(f"`{key}` must be a table such as {{ training = false }}, got {value!r}")
    out = []
    for name, setting in value.items():
        allowed = ASSUME.get(name)
        if allowed is None:
            raise ConfigError(f"`{key}.{name}`: unknown mode (known: {', '.join(ASSUME)})")
        ok = isinstance(setting, bool) if allowed == (bool,) else setting in allowed
        if not ok:
            want = "true or false" if allowed == (bool,) else " or ".join(map(repr, allowed))
            raise ConfigError(f"`{key}.{name}` must be {want}, got {setting!r}")
        out.append((name, setting))
    return tuple(sorted(out))


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"`{key}` must be true or false, got {value!r}")
    return value


_KEYS = {
    "select": _codes,
    "ignore": _codes,
    "extend-select": _codes,
    "per-file-ignores": _per_file_ignores,
    "exclude": _strings,
    "extend-exclude": _strings,
    "target-torch": _torch,
    "target-python": _python,
    "roots": _roots,
    "assume": _assume,
    "c-extensions": _strings,
    "respect-gitignore": _bool,
    "force-exclude": _bool,
}


def from_table(table: dict[str, Any], *, where: str = "[tool.compilelint]") -> dict[str, Any]:
    """Validate a config table into Settings keyword arguments."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key == "probe":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: `probe` must be a table")
            out["probe"] = value
            continue
        check = _KEYS.get(key)
        if check is None:
            known = ", ".join(sorted(_KEYS))
            raise ConfigError(f"{where}: unknown key `{key}` (known keys: {known}, probe)")
        try:
            out[key.replace("-", "_")] = check(key, value)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    return out


def load(config: str | None = None, start: str | None = None, **overrides: Any) -> Settings:
    """Settings from `config` (a pyproject.toml or compilelint.toml) or the nearest
    pyproject.toml above `start`, with non-None `overrides` (command-line flags) on top."""
    if config is not None:
        path: Path | None = Path(config)
        if not path.is_file():
            raise ConfigError(f"config file {config} does not exist")
    else:
        path = find_pyproject(Path(start or os.getcwd()))
    kwargs: dict[str, Any] = {}
    if path is not None:
        try:
            with path.open("rb") as handle:
                data = tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        table = data.get("tool", {}).get("compilelint", {}) if path.name == "pyproject.toml" else data
        kwargs = from_table(table, where=f"{path} [tool.compilelint]")
        kwargs["root"] = str(path.parent.resolve())
        kwargs["config_file"] = str(path)
    else:
        kwargs["root"] = str(Path(os.getcwd()).resolve())
    settings = Settings(**kwargs)
    flags = {k: v for k, v in overrides.items() if v is not None}
    for key in ("select", "ignore", "extend_select"):
        if key in flags:
            flags[key] = _codes(key.replace("_", "-"), list(flags[key]))
    if "target_torch" in flags:
        flags["target_torch"] = _torch("--target-torch", flags["target_torch"])
    if "target_python" in flags:
        flags["target_python"] = _python("--target-python", flags["target_python"])
    if "roots" in flags:
        flags["roots"] = _roots("--roots", flags["roots"])
    return replace(settings, **flags)


def selected(settings: Settings, code: str) -> bool:
    """ruff semantics, simplified: selected by a prefix in select/extend-select and not ignored."""
    if code in ("CL000", "CL001"):
        return True
    chosen = settings.select + settings.extend_select
    if not any(code.startswith(prefix) for prefix in chosen):
        return False
    return not any(code.startswith(prefix) for prefix in settings.ignore)
