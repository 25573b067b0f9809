"""The language server's settings: the ``distaff.*`` section of the client's
configuration, as one frozen value.

Settings arrive as JSON from ``initializationOptions``, ``workspace/configuration``
and ``workspace/didChangeConfiguration``. :func:`parse_settings` never raises:
a value of the wrong type or out of range keeps its default and is named in
the returned problems, so a typo in a user's settings file is reported, not
fatal. A change applies to the next check; a running check keeps the options
it started with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from distaff.analysis.check import MODES, Options
from distaff.analysis.options import (
    DEFAULT_FINDINGS_TIMEOUT_S, DEFAULT_MEMORY_MB, DEFAULT_SYM_ARG_LEN, DEFAULT_SYM_ARGS, MEMORY_MODELS,
)

CHECK_ON = ("save", "change", "manual")
TRACE_IN_MESSAGE = ("auto", "always", "never")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the user can set, with the key each field has under ``distaff.``.

    * ``check_on`` (``checkOn``): when a check starts by itself: on open and
      ``save``, on every ``change`` (after ``debounce_ms`` without edits), or
      ``manual`` (only the ``distaff.checkFile`` command and code lens).
    * ``debounce_ms`` (``debounceMs``): quiet time before a check on change.
    * ``mode``, ``unwind``: as :class:`distaff.analysis.check.Options`.
    * ``timeout_s`` (``timeout``): seconds per assertion; 0 or null is no limit.
    * ``workers``: processes the engine may use for one check.
    * ``max_memory_mb`` (``maxMemoryMB``): address-space limit of a check's
      worker process; 0 is no limit.
    * ``trace_in_message`` (``traceInMessage``): ``auto`` folds a counterexample's
      steps into the diagnostic's message when the client cannot show
      ``relatedInformation`` (or is Neovim, whose float shows the message only).
    * ``races``: also report data races, as warnings (``Options.report_races``).
    * ``spurious_wakeups`` (``spuriousWakeups``, on by default): condition
      waits may also return without a signal, as POSIX allows
      (``Options.spurious_wakeups``).
    * ``findings_timeout_s`` (``findingsTimeout``): seconds the search for
      deadlocks and run-time errors after the assertions may take; 0 or null
      is no limit but ``timeout`` (``Options.findings_timeout_s``).
    * ``memory_model`` (``memoryModel``): ``sc`` or ``rc11``, how memory is
      read (``Options.memory_model``).
    * ``sym_args`` (``symArgs``), ``sym_arg_len`` (``symArgLen``): main's
      symbolic command line, at most that many arguments of at most that many
      bytes (``Options.sym_args``, ``Options.sym_arg_len``).
    """

    check_on: str = "save"
    debounce_ms: int = 500
    mode: str = "dpor-ag"
    unwind: int = 8
    timeout_s: float | None = 30.0
    workers: int = 1
    max_memory_mb: int = DEFAULT_MEMORY_MB
    trace_in_message: str = "auto"
    races: bool = False
    spurious_wakeups: bool = True
    findings_timeout_s: float | None = DEFAULT_FINDINGS_TIMEOUT_S
    memory_model: str = "sc"
    sym_args: int = DEFAULT_SYM_ARGS
    sym_arg_len: int = DEFAULT_SYM_ARG_LEN

    def options(self) -> Options:
        """The engine options these settings ask for."""
        return Options(
            mode=self.mode,
            unwind=self.unwind,
            timeout_s=self.timeout_s,
            workers=self.workers,
            report_races=self.races,
            spurious_wakeups=self.spurious_wakeups,
            max_memory_mb=self.max_memory_mb,
            findings_timeout_s=self.findings_timeout_s,
            memory_model=self.memory_model,
            sym_args=self.sym_args,
            sym_arg_len=self.sym_arg_len,
        )


# key under ``distaff.`` -> (field, validator returning the value or raising ValueError)
def _int_in(lo: int, hi: int):
    def check(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
            raise ValueError("an integer")
        v = int(v)
        if not lo <= v <= hi:
            raise ValueError(f"between {lo} and {hi}")
        return v

    return check


def _one_of(choices: tuple[str, ...]):
    def check(v):
        if v not in choices:
            raise ValueError("one of " + ", ".join(choices))
        return v

    return check


def _timeout(v):
    if v is None or v == 0:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
        raise ValueError("a number of seconds (0 for no limit)")
    return float(v)


def _flag(v):
    if not isinstance(v, bool):
        raise ValueError("true or false")
    return v


_KEYS = {
    "checkOn": ("check_on", _one_of(CHECK_ON)),
    "debounceMs": ("debounce_ms", _int_in(0, 60_000)),
    "mode": ("mode", _one_of(MODES)),
    "unwind": ("unwind", _int_in(1, 1000)),
    "timeout": ("timeout_s", _timeout),
    "workers": ("workers", _int_in(1, 256)),
    "maxMemoryMB": ("max_memory_mb", _int_in(0, 1 << 20)),
    "traceInMessage": ("trace_in_message", _one_of(TRACE_IN_MESSAGE)),
    "races": ("races", _flag),
    "memoryModel": ("memory_model", _one_of(MEMORY_MODELS)),
    "spuriousWakeups": ("spurious_wakeups", _flag),
    "findingsTimeout": ("findings_timeout_s", _timeout),
    "symArgs": ("sym_args", _int_in(0, 16)),
    "symArgLen": ("sym_arg_len", _int_in(1, 64)),
}

# Settings under distaff.* that belong to the editor extensions, not the server.
_EDITOR_KEYS = frozenset({"server", "trace"})

assert {f for f, _ in _KEYS.values()} == {f.name for f in fields(Settings)}


def parse_settings(raw, base: Settings = Settings()) -> tuple[Settings, tuple[str, ...]]:
    """Settings from the JSON value of the ``distaff`` section (a dict; a dict
    holding a ``distaff`` dict is accepted too). Keys not given keep their
    value in ``base``; unknown keys and bad values are listed in the problems."""
    if isinstance(raw, dict) and isinstance(raw.get("distaff"), dict):
        raw = raw["distaff"]
    if raw is None:
        return base, ()
    if not isinstance(raw, dict):
        return base, (f"distaff settings should be an object, not {type(raw).__name__}",)
    changes, problems = {}, []
    for key, value in raw.items():
        if key in _EDITOR_KEYS:
            continue
        if key not in _KEYS:
            problems.append(f"distaff.{key}: unknown setting")
            continue
        name, check = _KEYS[key]
        try:
            changes[name] = check(value)
        except ValueError as e:
            problems.append(f"distaff.{key}: expected {e}, got {value!r}")
    return replace(base, **changes), tuple(problems)
