"""Every GAMEGRAPH_* setting the explorer package reads from the environment, one function each.

Each function reads its variable when called (so a test or a parent process
may change it), checks it and raises a one-line error naming the variable and
the value when it is wrong: a bad setting is reported, never ignored. The
Neo4j half (NEO4J_*, GAMEGRAPH_NEO4J_*) is in loaders/settings.py.

- GAMEGRAPH_HOME: the state folder (`state_dir`);
- GAMEGRAPH_MEMORY, GAMEGRAPH_UI_MEMORY: memory budgets (`memory_budget`, `ui_memory`);
- GAMEGRAPH_UI_MAX_POSITIONS, GAMEGRAPH_UI_MIRROR_MAX_POSITIONS: the page's limits;
- GAMEGRAPH_UI_AHEAD_SECONDS: the server time a grouped canvas spends on what it sends ahead (`ui_ahead_seconds`);
- GAMEGRAPH_KERNELS_FROM: the size from which compiled kernels run (`kernels_from`);
- GAMEGRAPH_GAME_MODULES: game files to load (`game_modules`, `set_game_modules`);
- GAMEGRAPH_PROGRESS: progress bars (`progress`); GAMEGRAPH_DEBUG: tracebacks (`debug`).

The libraries' own variables that gamegraph runs under or passes on are checked
here too, before the library reads them (`check_library_environment`, called
by the CLI first thing; `streamlit_environment` for the UI's child): numba's
NUMBA_NUM_THREADS (100000 segfaulted, 0 and abc were internal errors),
NUMBA_DISABLE_JIT (the kernels need the compiler), NUMBA_THREADING_LAYER and its
priority (an unknown layer was an internal error) and any NUMBA_ value numba
cannot parse (it warned with a traceback), Dask's timeouts
(DASK_*TIMEOUT*: abc was a KeyError), and Streamlit's server address (an empty
one means this machine only, as a missing one does; Streamlit read it as every
interface), port, theme and development mode.

Where gamegraph keeps its state: $GAMEGRAPH_HOME, else a per-user data folder.
The default follows the XDG base directory rules: $XDG_DATA_HOME/gamegraph when
XDG_DATA_HOME is an absolute path, else ~/.local/share/gamegraph. It does not
depend on the working directory, so `gamegraph neo4j status` and every query
find the embedded server, its password and the caches from anywhere. The
solved-graph cache, networkx mirrors and the embedded Neo4j server's data and
password live there.
The folder is checked where it is first used: it must be a folder this process
can write (created owner-only if missing); anything else is one GameGraphError
naming GAMEGRAPH_HOME, never an OSError deep inside a cache write.

gamegraph writes only into a state folder it owns: one that holds its marker
file (`STATE_MARKER`). It makes the folder itself, marker included, when it is
missing, and adopts (marks) an existing folder only when that folder is empty
(a `mktemp -d`, a fresh Docker volume) or holds nothing but gamegraph's own
subfolders (`STATE_SUBFOLDERS`: a state folder of a version from before the
marker). Any other existing folder, `/` or `/etc` say, is refused in one line
before anything in it is created, changed or chmod'ed.
A state subfolder may be a symlink to the subfolder of the same name of another
state folder (one holding the marker), e.g. ``implicit`` to reuse a large value
file solved once (`_shared`); a subfolder linked anywhere else is refused in one
line, whether the folder is being adopted or is marked already.
"""

from __future__ import annotations

import os
import re
import stat
from fractions import Fraction
from pathlib import Path

from explorer.core.bounds import whole_number
from explorer.core.errors import GameGraphError, InvalidParameter, StateFolderReadOnly, exit_if_locating_main, shown

APP_DIR_NAME = "gamegraph"
MAX_PATH_LENGTH = 4096  # PATH_MAX on Linux

HOME_ENV = "GAMEGRAPH_HOME"
MEMORY_ENV = "GAMEGRAPH_MEMORY"
UI_MEMORY_ENV = "GAMEGRAPH_UI_MEMORY"
UI_MAX_POSITIONS_ENV = "GAMEGRAPH_UI_MAX_POSITIONS"
UI_MIRROR_MAX_POSITIONS_ENV = "GAMEGRAPH_UI_MIRROR_MAX_POSITIONS"
UI_AHEAD_SECONDS_ENV = "GAMEGRAPH_UI_AHEAD_SECONDS"
KERNELS_FROM_ENV = "GAMEGRAPH_KERNELS_FROM"
GAME_MODULES_ENV = "GAMEGRAPH_GAME_MODULES"
PROGRESS_ENV = "GAMEGRAPH_PROGRESS"
DEBUG_ENV = "GAMEGRAPH_DEBUG"
UI_RUN_TIMES_ENV = "GAMEGRAPH_UI_RUN_TIMES"
UI_PROFILE_ENV = "GAMEGRAPH_UI_PROFILE"

KERNELS_FROM = 200_000                   # positions + moves from which the compiled kernels run
DEFAULT_UI_MAX_POSITIONS = 3_000_000     # the most positions the page builds
DEFAULT_UI_MIRROR_MAX_POSITIONS = 500_000  # the most positions the page mirrors in networkx
DEFAULT_UI_AHEAD_SECONDS = 2.0           # the most server time a grouped canvas spends on its rings sent ahead
MAX_UI_AHEAD_SECONDS = 600.0

# ASCII digits only (re.ASCII: \d would take "٣"), at most MAX_SIZE_DIGITS of them before the unit.
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE | re.ASCII)
MAX_SIZE_DIGITS = 30
MAX_SIZE = 1 << 60  # 1 EiB: more than any machine's memory; a larger budget is a typo
_UNITS = {"": 1, "k": 2 ** 10, "m": 2 ** 20, "g": 2 ** 30, "t": 2 ** 40}


def _text(name: str) -> str:
    """The variable's value without surrounding blanks; "" when unset."""
    return os.environ.get(name, "").strip()


def parse_size(text: str, name: str = MEMORY_ENV) -> int:
    """Bytes in a size such as ``4G``, ``512M``, ``1.5GiB`` or ``1000000``; InvalidParameter naming `name` otherwise."""
    if len(text or "") > MAX_SIZE_DIGITS + 8:
        raise InvalidParameter(f"{name}={shown(text)} is too long to be a memory size: write it like 4G, 512M "
                               "or 1000000 (bytes)")
    match = _SIZE.match(text or "")
    if not match:
        raise InvalidParameter(f"{name}={shown(text)} is not a memory size: write it like 4G, 512M or 1000000 "
                               "(bytes; plain digits)")
    value = int(Fraction(match[1]) * _UNITS[match[2].lower()])  # exact: a float would overflow or round
    if value > MAX_SIZE:
        raise InvalidParameter(f"{name}={shown(text)} is more than 1 EiB: write it like 4G, 512M or 1000000 (bytes)")
    if value < 1:
        raise InvalidParameter(f"{name}={text!r} must be more than 0 bytes")
    return value


def memory_budget(name: str = MEMORY_ENV) -> int | None:
    """The memory budget the environment sets (bytes), or None when it sets none."""
    text = _text(name)
    return parse_size(text, name) if text else None


def ui_memory() -> int | None:
    """GAMEGRAPH_UI_MEMORY in bytes (4G, 512M, …), or None when unset (explorer.ui.builds.ui_budget defaults it)."""
    return memory_budget(UI_MEMORY_ENV)


def ui_max_positions() -> int:
    """GAMEGRAPH_UI_MAX_POSITIONS, else 3,000,000; a bad value is reported, not ignored."""
    text = _text(UI_MAX_POSITIONS_ENV)
    if not text:
        return DEFAULT_UI_MAX_POSITIONS
    try:
        value = whole_number(text, "")
    except ValueError:
        value = 0
    if value < 1:
        raise GameGraphError(f"{UI_MAX_POSITIONS_ENV}={text!r} must be a whole number of positions, 1 or more")
    return value


def ui_mirror_max_positions() -> int:
    """GAMEGRAPH_UI_MIRROR_MAX_POSITIONS, else 500,000 (also when it is no whole number)."""
    text = _text(UI_MIRROR_MAX_POSITIONS_ENV)
    try:
        return whole_number(text, "") if text else DEFAULT_UI_MIRROR_MAX_POSITIONS
    except ValueError:
        return DEFAULT_UI_MIRROR_MAX_POSITIONS


def ui_ahead_seconds() -> float:
    """GAMEGRAPH_UI_AHEAD_SECONDS, else 2: the most seconds of server time a grouped canvas spends on the rings it
    sends ahead (explorer.ui.canvas.ahead.grouped_ahead; past it the rest are the round trip's). More makes each
    grouped canvas slower to come and more of its double-clicks drawn at once; the browser tests that need every
    ring raise it. InvalidParameter unless a number of seconds above 0 and at most 600."""
    text = _text(UI_AHEAD_SECONDS_ENV)
    if not text:
        return DEFAULT_UI_AHEAD_SECONDS
    try:
        value = float(text) if len(text) <= 20 and text.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_UI_AHEAD_SECONDS:  # (nan fails both comparisons)
        raise InvalidParameter(f"{UI_AHEAD_SECONDS_ENV}={shown(text)} must be a number of seconds above 0 and at "
                               f"most {MAX_UI_AHEAD_SECONDS:g}; unset it for {DEFAULT_UI_AHEAD_SECONDS:g}")
    return value


def kernels_from() -> int:
    """GAMEGRAPH_KERNELS_FROM, else 200,000: the size from which the compiled kernels run (0 = always)."""
    text = _text(KERNELS_FROM_ENV)
    if not text:
        return KERNELS_FROM
    try:
        value = whole_number(text, "", max_digits=18)
    except ValueError:
        value = -1
    if value < 0:
        raise InvalidParameter(f"{KERNELS_FROM_ENV}={text!r} is not a size: give a whole number >= 0")
    return value


MAX_THREADS_PER_CORE = 4
STREAMLIT_ADDRESS_ENV = "STREAMLIT_SERVER_ADDRESS"
STREAMLIT_PORT_ENV = "STREAMLIT_SERVER_PORT"
STREAMLIT_THEME_ENV = "STREAMLIT_THEME_BASE"
STREAMLIT_DEVELOPMENT_ENV = "STREAMLIT_GLOBAL_DEVELOPMENT_MODE"
LOOPBACK = "127.0.0.1"
_FALSE = ("", "0", "false", "no", "off")


def per_core_count(text: str) -> tuple[int, int]:
    """(the whole number of threads or runs `text` gives, 0 when it gives none; the most this machine takes,
    MAX_THREADS_PER_CORE per core): NUMBA_NUM_THREADS and the warm-up's --jobs."""
    most = MAX_THREADS_PER_CORE * max(1, os.cpu_count() or 1)
    try:
        return whole_number(text, "", max_digits=9), most
    except ValueError:
        return 0, most


def numba_threads() -> int | None:
    """NUMBA_NUM_THREADS as a number of threads, None when unset (or blank: then removed from the environment,
    which numba would read as an error); InvalidParameter unless a whole
    number from 1 to MAX_THREADS_PER_CORE per core of this machine (numba reads it when imported:
    0 and abc were its internal errors, 100000 a segmentation fault creating the threads)."""
    text = _text("NUMBA_NUM_THREADS")
    if not text:
        if "NUMBA_NUM_THREADS" in os.environ:  # set but blank: unset, as for every setting, before numba warns
            del os.environ["NUMBA_NUM_THREADS"]  # with a traceback that it cannot parse ''
        return None
    value, most = per_core_count(text)
    if not 1 <= value <= most:
        error = InvalidParameter(f"NUMBA_NUM_THREADS={shown(text)} must be a whole number of threads from 1 to "
                                 f"{most} ({MAX_THREADS_PER_CORE} per core of this machine); unset it for one per core")
        exit_if_locating_main(error)  # `python -m explorer.kernels.warmup`: one line, not a traceback, exit 2
        raise error
    return value



def solve_threads() -> int:
    """The threads numba solves and compresses on: NUMBA_NUM_THREADS (`numba_threads`), else one a core; read
    without importing numba."""
    return numba_threads() or os.cpu_count() or 1

def check_library_environment() -> None:
    """InvalidParameter (one line, naming the variable) for a library setting gamegraph cannot run
    under: NUMBA_NUM_THREADS (numba_threads), NUMBA_DISABLE_JIT set (the kernels use numba
    intrinsics that have no pure-Python form), a Dask timeout or interval that is no duration
    (DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=abc was a KeyError inside Dask). Called before numba
    or Dask is imported. O(number of environment variables)."""
    numba_threads()
    if _text("NUMBA_DISABLE_JIT").lower() not in _FALSE:
        raise InvalidParameter(f"NUMBA_DISABLE_JIT={shown(_text('NUMBA_DISABLE_JIT'))}: gamegraph's kernels need "
                               "numba's compiler; unset it (small games run without the kernels anyway)")
    _check_numba_environment()
    for name, value in sorted(os.environ.items()):
        upper = name.upper()
        if upper.startswith("DASK_") and ("TIMEOUT" in upper or "INTERVAL" in upper):
            if not _duration(value):
                raise InvalidParameter(f"{name}={shown(value)} is not a duration: write it like 30s, 500ms or 2 "
                                       "(seconds), as Dask reads it")


NUMBA_LAYERS = ("default", "safe", "threadsafe", "forksafe", "omp", "tbb", "workqueue")  # numba's names
_NUMBA_OWN = ("NUMBA_CACHE_DIR", "NUMBA_NUM_THREADS", "NUMBA_DISABLE_JIT")  # gamegraph sets or checks them
_NUMBA_UNREADABLE = re.compile(r"Environment variable '([^']*)' is defined but its associated value")


def _check_numba_environment() -> None:
    """InvalidParameter for a numba variable numba cannot run under: a threading layer it does not know, or
    one that needs Intel TBB when TBB cannot be loaded (safe, tbb); a priority that is not an order of tbb,
    omp and workqueue (each was an internal error at the first parallel kernel); a value numba cannot parse
    (NUMBA_OPT=abc: numba warned with a traceback and went on with its default). Nothing is imported unless
    a NUMBA_ variable is set; then numba's own reading of them is watched, here, where numba is first imported
    (the CLI calls this before anything imports numba; where numba was imported before, its reading is past)."""
    if not any(name.startswith("NUMBA_") and name not in _NUMBA_OWN for name in os.environ):
        return  # the suite's and a parent gamegraph's NUMBA_CACHE_DIR import nothing here
    layer = os.environ.get("NUMBA_THREADING_LAYER")
    if layer is not None:
        if layer.strip().lower() not in NUMBA_LAYERS:
            raise InvalidParameter(f"NUMBA_THREADING_LAYER={shown(layer)} is not one of numba's threading layers "
                                   f"({', '.join(NUMBA_LAYERS)}); unset it for numba's default")
        if layer.strip().lower() in ("safe", "tbb"):
            try:
                import numba.np.ufunc.tbbpool  # noqa: F401 - loads Intel TBB, as numba would
            except ImportError:
                raise InvalidParameter(f"NUMBA_THREADING_LAYER={shown(layer)} needs Intel TBB, which cannot be "
                                       "loaded here (pip install tbb); unset it for numba's default") from None
    priority = os.environ.get("NUMBA_THREADING_LAYER_PRIORITY")
    if priority is not None and sorted(priority.split()) != ["omp", "tbb", "workqueue"]:
        raise InvalidParameter(f"NUMBA_THREADING_LAYER_PRIORITY={shown(priority)} must name tbb, omp and "
                               "workqueue once each, in the order to try them; unset it for numba's default")
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import numba.core.config  # noqa: F401 - numba reads its variables here, warning of one it cannot parse
    for warning in caught:
        if found := _NUMBA_UNREADABLE.match(str(warning.message)):
            name = found[1]
            raise InvalidParameter(f"{name}={shown(os.environ.get(name, ''))} is not a value numba can read; "
                                   "unset it or see numba's documentation of its environment variables")


def _duration(text: str) -> bool:
    """Whether Dask reads `text` as a duration (dask.utils.parse_timedelta, which Dask applies to it
    later; imported only when such a variable is set). O(len(text))."""
    from dask.utils import parse_timedelta

    try:
        return len(text) <= 100 and parse_timedelta(text.strip()) >= 0
    except Exception:  # noqa: BLE001 - KeyError, ValueError, IndexError, TypeError: all mean "not a duration"
        return False


def streamlit_environment(environ: dict[str, str]) -> dict[str, str]:
    """The Streamlit variables of `environ` checked, with what to put in their place: an empty or blank
    STREAMLIT_SERVER_ADDRESS means this machine only (127.0.0.1), as when it is unset; Streamlit read
    it as every interface. InvalidParameter (one line) for a port outside 1..65535, a theme other than
    light or dark, and development mode on (it made `gamegraph ui` print Streamlit's traceback: the
    page is an installed app, not Streamlit's own source tree)."""
    changes: dict[str, str] = {}
    if STREAMLIT_ADDRESS_ENV in environ and not environ[STREAMLIT_ADDRESS_ENV].strip():
        changes[STREAMLIT_ADDRESS_ENV] = LOOPBACK
    port = environ.get(STREAMLIT_PORT_ENV)
    if port is not None:
        try:
            number = whole_number(port, "", max_digits=5)
        except ValueError:
            number = 0
        if not 1 <= number <= 65535:
            raise InvalidParameter(f"{STREAMLIT_PORT_ENV}={shown(port)} is not a port: give a whole number from 1 to "
                                   "65535, or unset it")
    theme = environ.get(STREAMLIT_THEME_ENV)
    if theme is not None and theme.strip().lower() not in ("light", "dark"):
        raise InvalidParameter(f"{STREAMLIT_THEME_ENV}={shown(theme)} is not a Streamlit theme: give light or dark, "
                               "or unset it")
    development = environ.get(STREAMLIT_DEVELOPMENT_ENV)
    if development is not None and development.strip().lower() not in _FALSE:
        raise InvalidParameter(f"{STREAMLIT_DEVELOPMENT_ENV}={shown(development)}: Streamlit's development mode is "
                               "for Streamlit's own source tree and cannot serve gamegraph's page; unset it")
    return changes


def game_modules() -> list[str]:
    """The game files GAMEGRAPH_GAME_MODULES names (separated by os.pathsep), blanks dropped."""
    return [p for p in os.environ.get(GAME_MODULES_ENV, "").split(os.pathsep) if p.strip()]


def set_game_modules(paths: list[str]) -> None:
    """Set GAMEGRAPH_GAME_MODULES for this process and its children (the UI)."""
    os.environ[GAME_MODULES_ENV] = os.pathsep.join(paths)


def progress() -> bool | None:
    """GAMEGRAPH_PROGRESS: False for 0, false or no, True for anything else, None when unset."""
    setting = os.environ.get(PROGRESS_ENV)
    if setting is None:
        return None
    return setting not in ("0", "false", "no")


def debug() -> bool:
    """GAMEGRAPH_DEBUG=1: an internal error shows its traceback."""
    return os.environ.get(DEBUG_ENV) == "1"


def ui_run_times() -> bool:
    """GAMEGRAPH_UI_RUN_TIMES=1: the UI logs each script run's server time (bench/bench_ui.py sets it)."""
    return os.environ.get(UI_RUN_TIMES_ENV) == "1"


def ui_profile() -> bool:
    """GAMEGRAPH_UI_PROFILE=1: the UI keeps each script run's cProfile stats beside its run times."""
    return os.environ.get(UI_PROFILE_ENV) == "1"


def state_dir(writable: bool = True) -> Path:
    """The state folder, created (owner-only, with its marker) if missing; GameGraphError if it cannot be
    used or is not gamegraph's own (see the module's docstring: nothing in a foreign folder is touched).

    `writable=False` is for paths that are only read (explorer.core.private.state_path): a marked
    folder this process cannot write (a read-only mount) is then returned, so that caches in it are
    still read; whoever writes asks with `writable=True` (StateFolderReadOnly otherwise).

    A relative GAMEGRAPH_HOME is taken from the working directory at the time of
    the call, as any path on a command line. O(path depth) once marked; the
    first call on an unmarked folder lists it."""
    folder, where = _located()
    try:
        if _is_marked(folder):
            made = False
        else:
            folder.parent.mkdir(parents=True, exist_ok=True)
            folder.mkdir(mode=0o700)
            made = True
    except FileExistsError:
        made = False
    except OSError as error:
        raise GameGraphError(f"cannot use {where}: {error.strerror or error}") from None
    if not folder.is_dir():
        kind = "a file, not a folder" if folder.exists() else "not a folder"
        raise GameGraphError(f"{where} is {kind}: set GAMEGRAPH_HOME to a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        if not writable and _is_marked(folder):
            return folder
        raise StateFolderReadOnly(f"cannot use {where}: it is not writable by this user")
    if made or not _is_marked(folder):
        _claim(folder, where, made)
    else:
        _check_links(folder, where)
    return folder


def state_dir_location() -> Path:
    """Where the state folder is, or would be made: GAMEGRAPH_HOME (absolute, ~ expanded), else the
    per-user default. Nothing is created, checked or written (`state_dir` does that). O(1)."""
    configured = os.environ.get(HOME_ENV)
    return Path(configured).expanduser().absolute() if configured else user_data_dir() / APP_DIR_NAME


def _located() -> tuple[Path, str]:
    """(the state folder's location, how messages name it); GameGraphError for a path longer than PATH_MAX."""
    folder = state_dir_location()
    where = f"the state folder {_shown(folder)}" + (" (GAMEGRAPH_HOME)" if os.environ.get(HOME_ENV) else "")
    if len(os.fsencode(str(folder))) > MAX_PATH_LENGTH:
        raise GameGraphError(f"{where} has a path longer than {MAX_PATH_LENGTH} bytes")
    return folder, where


def state_dir_if_present() -> Path | None:
    """The state folder when gamegraph's is there (checked as `state_dir(writable=False)` checks it; an earlier
    version's, unmarked, as it is), else None: nothing at its location, or an empty folder. For a look that only
    reads (`gamegraph neo4j status`): it creates, marks and writes nothing. A location no command could use (a
    file, a folder gamegraph did not make, a path too long, a missing folder whose parent cannot be written) is
    the GameGraphError `state_dir` gives, not None: a bad GAMEGRAPH_HOME is reported, never taken for "nothing there".
    O(path depth)."""
    folder, where = _located()
    if _is_marked(folder):
        return state_dir(writable=False)
    if os.path.lexists(folder):
        if not folder.is_dir():
            kind = "a file, not a folder" if folder.exists() else "not a folder"
            raise GameGraphError(f"{where} is {kind}: set GAMEGRAPH_HOME to a folder")
        _refuse_foreign(_foreign(folder, where), where)
        # Empty: nothing there yet. Only gamegraph's subfolders (an earlier version's state folder, which a
        # writer adopts): read as it is, unmarked.
        return folder if any(folder.iterdir()) else None
    ancestor = folder.parent
    while not os.path.lexists(ancestor) and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise GameGraphError(f"cannot use {where}: it is missing and cannot be made in {_shown(ancestor)}")
    return None


STATE_MARKER = ".gamegraph-state"  # the file that makes a folder gamegraph's state folder
STATE_SUBFOLDERS = frozenset({"graphs", "mirrors", "neo4j", "implicit", "survey", "numba-cache"})
_MARKER_TEXT = (b"This folder is gamegraph's state folder: solved-graph caches, networkx mirrors and the\n"
                b"embedded Neo4j server (data and password). gamegraph writes only into a folder holding\n"
                b"this file. Removing the whole folder resets gamegraph.\n")


def _is_marked(folder: Path) -> bool:
    """Whether `folder` holds the marker as a regular file (a symlink does not count). One lstat."""
    try:
        return stat.S_ISREG(os.lstat(folder / STATE_MARKER).st_mode)
    except OSError:
        return False


def _shared(link: Path) -> bool:
    """Whether the symlink `link` (a state subfolder, e.g. ``implicit``) leads to that same subfolder of
    another gamegraph state folder: a directory of the same name directly inside a folder holding the
    marker file (a large value file solved once, reused from a second state folder). Nothing else
    a link may point to is gamegraph's, so nothing else is followed. O(path depth)."""
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop
        return False
    return (link.name in STATE_SUBFOLDERS and target.name == link.name and target.is_dir()
            and target.parent != link.parent and _is_marked(target.parent))


def _check_links(folder: Path, where: str) -> None:
    """GameGraphError when a state subfolder of a marked state folder is a symlink that `_shared` does not
    accept: gamegraph would write through it, outside its own folders. One lstat per subfolder name."""
    for name in sorted(STATE_SUBFOLDERS):
        path = folder / name
        try:
            linked = stat.S_ISLNK(os.lstat(path).st_mode)
        except OSError:
            continue
        if linked and not _shared(path):
            raise GameGraphError(_link_refusal(where, name))


_LINK_NOTE = " (a link, but not to the {name} folder of another gamegraph state folder)"


def _link_refusal(where: str, name: str) -> str:
    return (f"{where} holds {name!r} as a link, but not to the {name} folder of another gamegraph state "
            "folder, and is left untouched: remove the link, or link it to such a folder")


def _claim(folder: Path, where: str, made: bool) -> None:
    """Mark `folder` as gamegraph's: one this process just made, an empty one, or one that holds only
    gamegraph's own subfolders (a state folder of an earlier version). Anything else is refused
    before a byte is written. Concurrent claims agree: the marker is created with O_EXCL."""
    if not made:
        foreign = _foreign(folder, where)
        if _is_marked(folder):  # another process claimed it meanwhile
            return
        _refuse_foreign(foreign, where)
    try:
        fd = os.open(folder / STATE_MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        if _is_marked(folder):
            return
        raise GameGraphError(f"cannot use {where}: its {STATE_MARKER} is not a regular file") from None
    except OSError as error:
        raise GameGraphError(f"cannot use {where}: {error.strerror or error}") from None
    try:
        if os.write(fd, _MARKER_TEXT) != len(_MARKER_TEXT):
            raise OSError(28, "No space left on device")
    except OSError as error:
        os.close(fd)
        fd = -1
        # A full disk let the file be made but not written: no 0-byte marker (issue 40), and a folder this
        # process made for it is taken back, so the next run starts from what the user had.
        try:
            os.unlink(folder / STATE_MARKER)
            if made:
                folder.rmdir()
        except OSError:
            pass
        raise GameGraphError(f"cannot use {where}: {error.strerror or error}") from None
    finally:
        if fd >= 0:
            os.close(fd)


def _foreign(folder: Path, where: str) -> list[str]:
    """The names in an unmarked `folder` that are not gamegraph's own subfolders (or are links `_shared` refuses),
    sorted. O(entries)."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries
                          if e.name not in STATE_SUBFOLDERS or (e.is_symlink() and not _shared(folder / e.name)))
    except OSError as error:
        raise GameGraphError(f"cannot use {where}: {error.strerror or error}") from None


def _refuse_foreign(foreign: list[str], where: str) -> None:
    """GameGraphError naming the first foreign names, if any: a folder gamegraph did not make is left untouched."""
    if foreign:
        shown = ", ".join(repr(name) + (_LINK_NOTE.format(name=name) if name in STATE_SUBFOLDERS else "")
                          for name in foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise GameGraphError(
            f"{where} is a folder gamegraph did not make (it holds {shown}) and is left untouched: "
            f"set GAMEGRAPH_HOME to a new or empty folder")


def user_data_dir() -> Path:
    """$XDG_DATA_HOME, else ~/.local/share (the XDG spec ignores a relative XDG_DATA_HOME)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg)
    try:
        return Path.home() / ".local" / "share"
    except RuntimeError:  # no HOME and no passwd entry
        raise GameGraphError("no home folder to keep gamegraph's state in: set GAMEGRAPH_HOME") from None


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 200 else f"{text[:160]}...{text[-20:]} ({len(text):,} characters)"
